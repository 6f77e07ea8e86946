// The floor for MCP 2026-07-28: an SDK v2 low-level Server that answers every tools/call with one
// precomputed reply (read from the file argv[3] names), over stdio (argv[2] = stdio, the SDK's own
// serveStdio) or Streamable HTTP (argv[2] = http, the SDK's createMcpHandler on node:http, its URL
// printed on stderr). It does no work of its own: its time is what any SDK v2 server pays. Given a
// third argument (a file), each call also reads that file and puts its text in the reply, as the
// least a server answering a read must do.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const [mode, replyFile, readPath] = process.argv.slice(2);
const reply = JSON.parse(readFileSync(replyFile, 'utf8'));
const answer =
  readPath === undefined
    ? () => reply
    : async () => {
        const structuredContent = { ...reply.structuredContent, content: await readFile(readPath, 'utf8') };
        return { ...reply, structuredContent, content: [{ type: 'text', text: JSON.stringify(structuredContent) }] };
      };
const factory = () => {
  const server = new Server({ name: 'stub', version: '0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  server.setRequestHandler('tools/call', answer);
  return server;
};
if (mode === 'stdio') {
  process.stdin.once('end', () => process.exit(0));
  serveStdio(factory);
} else {
  const handler = toNodeHandler(createMcpHandler(factory));
  const http = createServer((request, response) => void handler(request, response));
  http.listen(0, '127.0.0.1', () => process.stderr.write(`stub on http://127.0.0.1:${http.address().port}/mcp\n`));
}
