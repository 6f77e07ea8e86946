import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const require = createRequire(import.meta.url);

/** The servers: ours (the built CLI), the reference server (2026.8.31, SDK v1, and 2.x on SDK v2), and the stub floor. */
export const SERVERS = {
  ours: (root) => [fileURLToPath(new URL('../../apps/cli/dist/main.js', import.meta.url)), 'mcp', '--root', root],
  theirs: (root) => [require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'), root],
  theirs_v2: (root) => [require.resolve('@modelcontextprotocol/server-filesystem-v2/dist/index.js'), root],
  stub: (replyFile) => [fileURLToPath(new URL('./stub-server.mjs', import.meta.url)), replyFile],
};

/**
 * Spawns one server over stdio and connects the SDK Client to it (spawn + initialize + initialized).
 * The client never calls tools/list, so it validates no structuredContent: what is timed is the
 * server and the transport, not the client's Ajv. Stderr is read (unread, close waits 2 s).
 */
export async function connectServer(kind, argument) {
  const transport = new StdioClientTransport({ command: process.execPath, args: SERVERS[kind](argument), stderr: 'pipe' });
  const log = [];
  transport.stderr?.on('data', (chunk) => log.push(String(chunk)));
  const client = new Client({ name: 'libos-bench', version: '0' });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid,
    log,
    call: (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 }),
    close: () => client.close(),
  };
}
