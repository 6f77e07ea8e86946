import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { LIBOS_BIN } from './libos-binary.js';

/** The initialize request and notification a client sends first. */
export const HANDSHAKE = [
  {
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
];

/** A `libos mcp` driven line by line, without the SDK client (which cannot send malformed messages). */
export interface RawMcp {
  readonly child: ChildProcessWithoutNullStreams;
  /** Writes one line: a string as is, anything else as JSON. */
  send(message: unknown): void;
  /** Resolves with the exit status once the server has exited by itself. */
  exited(): Promise<number | null>;
  /** Closes stdin; resolves with every parsed stdout line once the server has exited, and its status. */
  finish(): Promise<{ status: number | null; messages: Record<string, unknown>[]; stderr: string }>;
}

export interface RawMcpOptions {
  /** false: nobody reads stdout until `finish`. */
  readonly readStdout?: boolean;
  /** What to keep of each message (replies can be megabytes; keep little of many). */
  readonly keep?: (message: Record<string, unknown>) => Record<string, unknown>;
}

/** Spawns `libos mcp ARGS`. */
export function startRawMcp(args: readonly string[], options: RawMcpOptions & { readonly cwd?: string } = {}): RawMcp {
  const child = spawn(process.execPath, [LIBOS_BIN, 'mcp', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const messages: Record<string, unknown>[] = [];
  const keep = options.keep ?? ((message) => message);
  let pending: Buffer[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const onData = (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const line = Buffer.concat([...pending, chunk.subarray(start, newline)]).toString('utf8');
      pending = [];
      if (line !== '') messages.push(keep(JSON.parse(line) as Record<string, unknown>));
      start = newline + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  };
  const read = () => child.stdout.on('data', onData);
  if (options.readStdout !== false) read();
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    exited: () => exited,
    send(message) {
      child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
    },
    async finish() {
      if (options.readStdout === false) read();
      child.stdin.end();
      const status = await exited;
      return { status, messages, stderr };
    },
  };
}
