import { performance } from 'node:perf_hooks';
import { createRuntime } from '@libos/tools';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createMcpHttpHandler } from './dist/index.js';
import { createServer } from 'node:http';
const runtime = await createRuntime({ provider: createMemfsProvider() });
const handler = createMcpHttpHandler(runtime, {});
const marks = [];
const node = createServer((q, s) => {
  const t0 = performance.now();
  const m = { t0 };
  s.on('finish', () => {
    m.finish = performance.now() - t0;
  });
  const w = s.write.bind(s);
  s.write = (...a) => {
    m.firstWrite ??= performance.now() - t0;
    return w(...a);
  };
  const e = s.end.bind(s);
  s.end = (...a) => {
    m.end = performance.now() - t0;
    return e(...a);
  };
  marks.push(m);
  handler.handle(q, s);
});
await new Promise((r) => node.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${node.address().port}/mcp`;
const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const init = await fetch(url, {
  method: 'POST',
  headers: H,
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'r', version: '0' } },
  }),
});
await init.text();
const h = { ...H, 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-06-18' };
await (await fetch(url, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
const N = 300;
for (let round = 0; round < 2; round++) {
  const t = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const r = await fetch(url, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'get_working_directory', arguments: {} } }),
    });
    await r.text();
  }
  const used = process.cpuUsage(cpu);
  console.log('raw fetch ms/call', ((performance.now() - t) / N).toFixed(3), 'cpu', ((used.user + used.system) / 1000 / N).toFixed(3));
}
const last = marks.slice(-100);
const avg = (k) => (last.reduce((a, m) => a + (m[k] ?? 0), 0) / last.length).toFixed(3);
console.log('server firstWrite', avg('firstWrite'), 'end', avg('end'), 'finish', avg('finish'));
process.exit(0);
