import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';

// The README's embedder example, run as a user would paste it (it is plain JavaScript).
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const section = readme.slice(readme.indexOf('## Mount the tools in your own HTTP server'));
const example = /```ts\n([\s\S]*?)```/u.exec(section)?.[1] ?? '';
const file = fileURLToPath(new URL('./readme-example.generated.mjs', import.meta.url));

afterAll(() => rmSync(file, { force: true }));

describe('the README example', () => {
  it('mounts the tools in a plain node:http server that an SDK client calls with the token', async () => {
    expect(example).toContain('createMcpHttpHandler');
    writeFileSync(file, example);
    process.env.PORT = '0';
    process.env.MCP_TOKEN = 'readme-token';
    const { server } = (await import(/* @vite-ignore */ file)) as { server: Server };
    try {
      const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
      const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
      expect((await fetch(new URL('/other', url))).status).toBe(404);

      const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer readme-token' } } });
      const client = new Client({ name: 'readme-test', version: '0' });
      await client.connect(transport);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('write_text_file');
      const written = await client.callTool({ name: 'write_text_file', arguments: { path: 'hello.txt', content: 'hi\n' } });
      expect(written.structuredContent).toMatchObject({ path: 'hello.txt', created: true });
      const read = await client.callTool({ name: 'read_text_file', arguments: { path: 'hello.txt' } });
      expect(read.structuredContent).toMatchObject({ content: 'hi\n' });
      await client.close();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
