import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { LIBOS_BIN } from './libos-binary.js';

/** A running `libos serve --http 127.0.0.1:0 ...`. */
export interface ServeProcess {
  readonly url: URL;
  /** The token the start-up line printed, when the server generated one. */
  readonly token: string | undefined;
  readonly child: ChildProcess;
  stderr(): string;
  /** Sends a signal and resolves with the exit status. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the built binary on a free loopback port and waits for its start-up line. */
export function startServe(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  // Tokenless unless the test gives a token: the default (a generated token) has tests of its own.
  const tokenless = !args.includes('--token-file') && (env.LIBOS_TOKEN ?? '') === '' && !args.includes('--no-single-user');
  const flags = [...args.filter((arg) => arg !== '--no-single-user'), ...(tokenless ? ['--single-user'] : [])];
  const child = spawn(process.execPath, [LIBOS_BIN, 'serve', '--http', '127.0.0.1:0', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LIBOS_TOKEN: '', NO_COLOR: '1', ...env },
  });
  let log = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (status) => resolve(status)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /on (http:\/\/\S+\/mcp)/u.exec(log);
      if (match !== null) {
        resolve({
          url: new URL(match[1]!),
          token: /generated for this run: (\S+)\)/u.exec(log)?.[1],
          child,
          stderr: () => log,
          async stop(signal = 'SIGTERM') {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    child.stdout!.resume();
    void exited.then((status) => reject(new Error(`libos serve exited with ${status} before serving: ${log}`)));
  });
}

/** How the test client answers an elicitation: a fixed answer, or a function that decides. */
export type Answerer = 'accept' | 'decline' | ((request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>);

/** An SDK client over Streamable HTTP, with an optional bearer token and elicitation answers. */
export async function connectHttp(url: URL, options: { token?: string; answer?: Answerer } = {}) {
  const headers: Record<string, string> = options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: 'libos-http-test', version: '0.0.0' }, { capabilities: options.answer === undefined ? {} : { elicitation: {} } });
  const elicitations: ElicitRequest['params'][] = [];
  const answer = options.answer;
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      elicitations.push(request.params);
      if (typeof answer === 'function') return answer(request.params, extra.signal);
      return answer === 'accept' ? { action: 'accept', content: {} } : { action: 'decline' };
    });
  }
  await client.connect(transport);
  await client.listTools();
  return {
    client,
    transport,
    elicitations,
    call: async (name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) =>
      (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 30_000,
        ...(signal === undefined ? {} : { signal }),
      })) as CallToolResult,
  };
}

/** A plain HTTP request to the endpoint, for the refusals an SDK client never makes. */
export async function post(
  url: URL,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
} as const;

/** Ends a session opened by a raw initialize. */
export async function deleteSession(url: URL, sessionId: string, headers: Record<string, string> = {}): Promise<number> {
  return (await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, ...headers } })).status;
}
