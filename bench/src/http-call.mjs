// One call over MCP Streamable HTTP (`libos serve`) against the same call over stdio (`libos mcp`),
// same run, both through the official SDK client, alternating rounds (issue 21 item 6: target at
// most 2x). LIBOS_BENCH_CLI=path/to/main.js measures another build of the CLI (a before/after).
// Run: node src/http-call.mjs
import { Agent, request } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { median } from './median.mjs';
import { startServe as startServeAt } from './start-serve.mjs';

const CLI = process.env.LIBOS_BENCH_CLI ?? fileURLToPath(new URL('../../apps/cli/dist/main.js', import.meta.url));
const ROUNDS = Number(process.env.LIBOS_BENCH_ROUNDS ?? 6);
const CALLS = Number(process.env.LIBOS_BENCH_CALLS ?? 100);
const CASES = [
  ['100-byte read', 'read_text_file', { path: 'small.txt' }],
  ['cwd query', 'get_working_directory', {}],
];

function startServe(root) {
  // Our clients carry no token: --single-user (a build from before it served loopback tokenless).
  return startServeAt(CLI, root, process.env.LIBOS_BENCH_CLI === undefined ? ['--single-user'] : []);
}

async function connect(transport) {
  const client = new Client({ name: 'libos-bench-http-call', version: '0' });
  await client.connect(transport);
  return client;
}

/** The per-call times of `count` calls, one after another. */
async function timeCalls(client, name, args, count) {
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const result = await client.callTool({ name, arguments: args });
    times.push(performance.now() - started);
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  }
  return times;
}

/**
 * A client of the raw protocol over node:http (keep-alive): what the server costs per call without
 * the SDK client's fetch (undici), which measured here at several times a whole stdio call by itself.
 */
async function rawHttpClient(url) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (headers, body) =>
    new Promise((resolve, reject) => {
      const sent = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ headers: response.headers, text }));
      });
      sent.on('error', reject);
      sent.end(body);
    });
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  };
  const opened = await post(base, JSON.stringify(initialize));
  const headers = { ...base, 'mcp-session-id': opened.headers['mcp-session-id'], 'mcp-protocol-version': '2025-06-18' };
  await post(headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  let id = 1;
  return {
    async callTool({ name, arguments: args }) {
      const { text } = await post(headers, JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } }));
      return JSON.parse(text.startsWith('{') ? text : /^data: (.*)$/mu.exec(text)[1]).result;
    },
    close: () => agent.destroy(),
  };
}

const root = await mkdtemp(join(tmpdir(), 'libos-bench-http-call-'));
try {
  await writeFile(join(root, 'small.txt'), 'x'.repeat(100));
  const stdioTransport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--root', root], stderr: 'pipe' });
  stdioTransport.stderr?.on('data', () => {});
  const stdio = await connect(stdioTransport);
  const served = await startServe(root);
  const http = await connect(new StreamableHTTPClientTransport(served.url));
  const raw = await rawHttpClient(served.url);
  const lines = [
    '| one call | http, SDK client | http, raw node:http client | stdio, SDK client | SDK http / stdio | raw http / stdio |',
    '|---|---|---|---|---|---|',
  ];
  for (const [label, name, args] of CASES) {
    // Warm both before anything is kept.
    await timeCalls(stdio, name, args, 20);
    await timeCalls(http, name, args, 20);
    await timeCalls(raw, name, args, 20);
    const times = { http: [], raw: [], stdio: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      times.stdio.push(...(await timeCalls(stdio, name, args, CALLS)));
      times.http.push(...(await timeCalls(http, name, args, CALLS)));
      times.raw.push(...(await timeCalls(raw, name, args, CALLS)));
    }
    const [h, r, s] = [median(times.http), median(times.raw), median(times.stdio)];
    lines.push(`| ${label} | ${h.toFixed(3)} ms | ${r.toFixed(3)} ms | ${s.toFixed(3)} ms | ${(h / s).toFixed(2)} | ${(r / s).toFixed(2)} |`);
  }
  console.log(lines.join('\n'));
  raw.close();
  await http.close();
  await stdio.close();
  served.child.kill('SIGTERM');
} finally {
  await rm(root, { recursive: true, force: true });
}
