// The transport floor: an SDK low-level Server that answers every tools/call with one precomputed
// reply (read once from the file named by argv[2]), doing no work of its own. Its time is what any
// server pays to send a reply of that size over stdio to the same client.
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const reply = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const server = new Server({ name: 'stub', version: '0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
server.setRequestHandler(CallToolRequestSchema, () => reply);
process.stdin.once('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
