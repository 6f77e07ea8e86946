import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from './support/http-serve.js';
import { LIBOS_BIN, temporaryDirectory } from './support/libos-binary.js';

// An SDK v2 client pinned to MCP 2026-07-28 (no initialize, no session) against the built binary,
// over stdio (`libos mcp`) and Streamable HTTP (`libos serve`).
let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  scratch = await temporaryDirectory('libos-modern-');
  await writeFile(join(scratch.path, 'hello.txt'), 'hi there\n');
});
afterAll(async () => {
  await scratch?.remove();
});

const pinned = () => new Client({ name: 'modern-e2e', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });

async function exercise(client: Client) {
  const listed = await client.listTools();
  expect(listed.tools.map((tool) => tool.name)).toContain('read_text_file');
  const read = await client.callTool({ name: 'read_text_file', arguments: { path: 'hello.txt' } });
  expect(read.structuredContent).toMatchObject({ content: 'hi there\n' });
  const refused = await client.callTool({ name: 'read_text_file', arguments: { path: '../outside' } });
  expect(refused.isError).toBe(true);
}

describe('MCP 2026-07-28 through the libos binary', () => {
  it('serves tools/list and tools/call over stdio', async () => {
    const client = pinned();
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [LIBOS_BIN, 'mcp', '--root', scratch.path], stderr: 'ignore' }));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  it('serves tools/list and tools/call over HTTP with no session', async () => {
    const served = await startServe(['--root', scratch.path]);
    const client = pinned();
    try {
      await client.connect(new StreamableHTTPClientTransport(served.url));
      await exercise(client);
      await client.close();
    } finally {
      await served.stop();
    }
  });
});
