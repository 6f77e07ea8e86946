import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ListRootsRequestSchema, type CallToolResult, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { LIBOS_BIN } from './libos-binary.js';

/** How the test client answers elicitation requests; `none` declares no elicitation capability. */
export type ElicitationAnswer = 'accept' | 'decline' | 'cancel' | 'none';

/** A connected SDK client driving one spawned `libos mcp`. */
export interface McpSession {
  readonly client: Client;
  /** Every elicitation the server sent. */
  readonly elicitations: ElicitRequest['params'][];
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** Calls a tool (with a generous timeout) and returns the raw MCP result. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Closes stdin and waits for the server to exit. */
  close(): Promise<void>;
}

/** Where the server starts and which MCP roots the client offers (none: no roots capability). */
export interface SessionStart {
  readonly cwd?: string;
  readonly roots?: readonly string[];
}

/** Spawns `libos mcp ARGS`, connects and lists the tools (so the client validates structuredContent). */
export async function startMcpSession(args: readonly string[], answer: ElicitationAnswer = 'none', start: SessionStart = {}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [LIBOS_BIN, 'mcp', ...args],
    stderr: 'pipe',
    ...(start.cwd === undefined ? {} : { cwd: start.cwd }),
  });
  let log = '';
  // Unread stderr would make close() wait for the SIGTERM path.
  transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const client = new Client(
    { name: 'libos-cli-test', version: '0.0.0' },
    { capabilities: { ...(answer === 'none' ? {} : { elicitation: {} }), ...(start.roots === undefined ? {} : { roots: {} }) } },
  );
  if (start.roots !== undefined) {
    const roots = start.roots.map((uri) => ({ uri }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
  }
  const elicitations: ElicitRequest['params'][] = [];
  if (answer !== 'none') {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicitations.push(request.params);
      return answer === 'accept' ? { action: 'accept', content: {} } : { action: answer };
    });
  }
  await client.connect(transport);
  await client.listTools();
  return {
    client,
    elicitations,
    stderr: () => log,
    async call(name, callArguments = {}) {
      return (await client.callTool({ name, arguments: callArguments }, undefined, { timeout: 20_000 })) as CallToolResult;
    },
    async close() {
      // The SDK transport closes stdin and waits for the server to exit (SIGTERM only after 2 s).
      await client.close();
    },
  };
}

/** The failure object in a failed result's one text block. */
export function failureOf(result: CallToolResult): { code: string; message: string; effect: string; details: unknown } {
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error('expected a text block');
  return (JSON.parse(block.text) as { error: { code: string; message: string; effect: string; details: unknown } }).error;
}
