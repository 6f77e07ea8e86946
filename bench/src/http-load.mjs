// The load test of `libos serve --http` (issue 12): 64 concurrent sessions of 200 mixed calls each,
// loopback only, bounded in count; p50/p99 latency, the server's peak RSS, and the per-call
// latency over HTTP against the same calls over stdio in the same run. Run: node src/http-load.mjs
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectServer } from './connect-server.mjs';
import { median } from './median.mjs';
import { peakRss } from './peak-rss.mjs';
import { startServe as startServeAt } from './start-serve.mjs';

const SESSIONS = Number(process.env.LIBOS_BENCH_HTTP_SESSIONS ?? 64);
const CALLS = Number(process.env.LIBOS_BENCH_HTTP_CALLS ?? 200);
const SEQUENTIAL_CALLS = 300;
const CLI = fileURLToPath(new URL('../../apps/cli/dist/main.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('../results/http-load.json', import.meta.url));
const BENCHMARKS = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
const START = '<!-- http-load:start (written by `pnpm bench`; edit nothing inside) -->';
const END = '<!-- http-load:end -->';

/** Replaces (or appends) the HTTP load block of BENCHMARKS.md with this run's table. */
async function writeBenchmarksBlock(lines) {
  const text = await readFile(BENCHMARKS, 'utf8');
  const block = `${START}\n\n${lines.join('\n')}\n\n${END}`;
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  const next =
    start !== -1 && end > start
      ? text.slice(0, start) + block + text.slice(end + END.length)
      : `${text.trimEnd()}\n\n## libos serve --http under load (issue 12)\n\n64 sessions over MCP Streamable HTTP on loopback, each 200 calls of a mix (100-byte read, 100-byte\ndurable write, a 51-entry listing, a cwd query), all at once against one \`libos serve\`; then the\nsame calls from one session, one after another, over HTTP and over stdio (\`libos mcp\`), alternating.\n\n${block}\n`;
  await writeFile(BENCHMARKS, next);
}

/** The mix each session runs, call `i` of session `s`: reads, writes, listings, a cwd query. */
function mixedCall(session, i) {
  switch (i % 4) {
    case 0:
      return ['read_text_file', { path: 'shared/small.txt' }];
    case 1:
      return ['write_text_file', { path: `sessions/s${session}.txt`, content: `call ${i}`.padEnd(100, '.') }];
    case 2:
      return ['read_directory', { path: 'shared' }];
    default:
      return ['get_working_directory', {}];
  }
}

function percentile(values, fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

function startServe(root) {
  // --single-user: the bench's clients carry no token (loopback, this machine's own runs).
  return startServeAt(CLI, root, ['--single-user', '--max-sessions', String(SESSIONS + 8)]);
}

async function connectHttp(url) {
  const client = new Client({ name: 'libos-bench-http', version: '0' });
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  return { client, transport, call: (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 }) };
}

/** Runs `count` calls of the mix one after another; returns each call's latency and the failures. */
async function runCalls(session, index, count) {
  const latencies = [];
  let unexpected = 0;
  for (let i = 0; i < count; i += 1) {
    const [name, args] = mixedCall(index, i);
    const started = performance.now();
    try {
      const result = await session.call(name, args);
      if (result.isError) unexpected += 1;
    } catch {
      unexpected += 1;
    }
    latencies.push(performance.now() - started);
  }
  return { latencies, unexpected };
}

const root = await mkdtemp(join(tmpdir(), 'libos-bench-http-'));
try {
  await mkdir(join(root, 'shared'));
  await mkdir(join(root, 'sessions'));
  await writeFile(join(root, 'shared', 'small.txt'), 'x'.repeat(100));
  for (let i = 0; i < 50; i += 1) await writeFile(join(root, 'shared', `file-${i}.txt`), `file ${i}\n`);

  // The same calls, one session, one after another, over each transport (alternating halves).
  const stdio = await connectServer('ours', root);
  const served = await startServe(root);
  const single = await connectHttp(served.url);
  const sequential = { stdio: [], http: [] };
  for (const half of [0, 1]) {
    sequential.stdio.push(...(await runCalls(stdio, 1000 + half, SEQUENTIAL_CALLS / 2)).latencies);
    sequential.http.push(...(await runCalls(single, 2000 + half, SEQUENTIAL_CALLS / 2)).latencies);
  }
  await stdio.close();
  await single.transport.terminateSession();
  await single.client.close();

  process.stderr.write(`http load: ${SESSIONS} sessions x ${CALLS} calls\n`);
  const started = performance.now();
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => connectHttp(served.url)));
  const runs = await Promise.all(sessions.map((session, index) => runCalls(session, index, CALLS)));
  const wallMs = performance.now() - started;
  const rss = peakRss(served.child.pid);
  await Promise.all(
    sessions.map(async (session) => {
      await session.transport.terminateSession();
      await session.client.close();
    }),
  );
  served.child.kill('SIGTERM');
  const exitStatus = await new Promise((resolve) => served.child.once('exit', resolve));

  const latencies = runs.flatMap((run) => run.latencies);
  const results = {
    date: new Date().toISOString(),
    sessions: SESSIONS,
    calls_per_session: CALLS,
    calls: latencies.length,
    unexpected_errors: runs.reduce((sum, run) => sum + run.unexpected, 0),
    wall_ms: Math.round(wallMs),
    p50_ms: Number(percentile(latencies, 0.5).toFixed(2)),
    p99_ms: Number(percentile(latencies, 0.99).toFixed(2)),
    server_peak_rss_mib: Number((rss / 2 ** 20).toFixed(1)),
    server_exit_status: exitStatus,
    sequential_per_call_ms: { stdio: Number(median(sequential.stdio).toFixed(3)), http: Number(median(sequential.http).toFixed(3)) },
    http_over_stdio: Number((median(sequential.http) / median(sequential.stdio)).toFixed(2)),
  };
  if (SESSIONS === 64 && CALLS === 200) await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  const table = [
    '| libos serve --http load | value |',
    '|---|---|',
    `| sessions x calls | ${SESSIONS} x ${CALLS} = ${results.calls} |`,
    `| unexpected errors | ${results.unexpected_errors} |`,
    `| p50 / p99 latency under load | ${results.p50_ms} ms / ${results.p99_ms} ms |`,
    `| server peak RSS | ${results.server_peak_rss_mib} MiB |`,
    `| per call, one session: http / stdio | ${results.sequential_per_call_ms.http} ms / ${results.sequential_per_call_ms.stdio} ms = ${results.http_over_stdio} |`,
  ];
  console.log(table.join('\n'));
  // A partial run (fewer sessions or calls than the issue's) changes no recorded number.
  if (SESSIONS === 64 && CALLS === 200) await writeBenchmarksBlock([`Run ${results.date}:`, '', ...table]);
  if (results.unexpected_errors > 0 || exitStatus !== 0) process.exitCode = 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
