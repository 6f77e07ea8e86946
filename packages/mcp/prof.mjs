import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createRuntime } from '@libos/tools';
import { createMemfsProvider } from '@libos/provider-memfs';
import { serveHttp, createMcpServer } from './dist/index.js';
const runtime = await createRuntime({ provider: createMemfsProvider() });
const server = await serveHttp(runtime, {});
const client = new Client({ name: 'b', version: '0' });
await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
const N = Number(process.env.N ?? 300);
async function time(c) {
  for (let i = 0; i < 30; i++) await c.callTool({ name: 'get_working_directory', arguments: {} });
  const t = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < N; i++) await c.callTool({ name: 'get_working_directory', arguments: {} });
  const used = process.cpuUsage(cpu);
  console.log('cpu ms/call', ((used.user + used.system) / 1000 / N).toFixed(3));
  return (performance.now() - t) / N;
}
console.log('http ms/call', (await time(client)).toFixed(3));
const mem = new Client({ name: 'm', version: '0' });
const [a, b] = InMemoryTransport.createLinkedPair();
await Promise.all([createMcpServer(runtime).connect(b), mem.connect(a)]);
console.log('in-memory ms/call', (await time(mem)).toFixed(3));
process.exit(0);
