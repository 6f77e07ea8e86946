// The fleet bench (docs/fleet.md): calls per second of a 100-byte read through HAProxy with two
// `libos serve --state` instances against one instance alone, and what the PostgreSQL state adds
// per call (latency, and round trips counted as committed transactions of the state database).
// Needs LIBOS_TEST_DATABASE_URL (tooling/postgres/throwaway-postgres.sh run node apps/cli/bench/fleet.mjs)
// and /usr/sbin/haproxy. Run after `pnpm turbo run build`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const BIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const base = process.env.LIBOS_TEST_DATABASE_URL;
if (base === undefined) throw new Error('set LIBOS_TEST_DATABASE_URL (tooling/postgres/throwaway-postgres.sh run node apps/cli/bench/fleet.mjs)');
const SEQUENTIAL = 200;
const WARMUP = 50;
const CONCURRENCY = 8;
const SECONDS = 5;
const token = randomBytes(16).toString('hex');
const work = await mkdtemp(join(tmpdir(), 'libos-fleet-bench-'));
const cleanups = [];

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function database() {
  const name = `libos_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

function serve(flags) {
  const child = spawn(process.execPath, [BIN, 'serve', '--http', '127.0.0.1:0', '--token-file', join(work, 'token'), ...flags], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  cleanups.push(() => child.kill('SIGKILL'));
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const match = /on (http:\/\/\S+\/mcp)/u.exec(log);
      if (match) resolve(new URL(match[1]));
    });
    child.once('exit', () => reject(new Error(log)));
  });
}

async function balancer(hosts) {
  const port = await freePort();
  const config = join(work, `haproxy-${port}.cfg`);
  const servers = hosts.map((host, index) => `  server i${index} ${host}`);
  await writeFile(
    config,
    [
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      'frontend f',
      `  bind 127.0.0.1:${port}`,
      '  default_backend b',
      'backend b',
      '  balance roundrobin',
      ...servers,
      '',
    ].join('\n'),
  );
  const child = spawn('/usr/sbin/haproxy', ['-db', '-f', config], { stdio: 'ignore' });
  cleanups.push(() => child.kill('SIGKILL'));
  await new Promise((resolve) => setTimeout(resolve, 500));
  return new URL(`http://127.0.0.1:${port}/mcp`);
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'fleet-bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
let id = 0;
async function call(url, name, args) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args, _meta: META } }),
  });
  const json = await response.json();
  if (json.result?.isError !== false && json.result?.structuredContent === undefined) throw new Error(JSON.stringify(json));
  return json.result.structuredContent;
}

async function agentAt(url) {
  await call(url, 'write_text_file', { path: 'hundred.txt', content: 'x'.repeat(100) });
  return (await call(url, 'set_working_directory', { path: '.' })).process;
}

async function sequential(url, handle) {
  for (let index = 0; index < WARMUP; index++) await call(url, 'read_text_file', { process: handle, path: 'hundred.txt' });
  const start = process.hrtime.bigint();
  for (let index = 0; index < SEQUENTIAL; index++) await call(url, 'read_text_file', { process: handle, path: 'hundred.txt' });
  return Number(process.hrtime.bigint() - start) / 1e6 / SEQUENTIAL;
}

async function throughput(url, handle) {
  let calls = 0;
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        await call(url, 'read_text_file', { process: handle, path: 'hundred.txt' });
        calls += 1;
      }
    }),
  );
  return calls / SECONDS;
}

async function commits(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()');
  await client.end();
  return Number(rows[0].xact_commit);
}

try {
  await writeFile(join(work, 'token'), `${token}\n`);
  const db = await database();
  const files = ['--provider', 'postgres', '--database', db, '--workspace', 'bench'];
  // The same instance with the processes in memory, and with them in PostgreSQL.
  const memoryUrl = await serve(['--provider', 'memfs']);
  const memoryHandle = await agentAt(memoryUrl);
  const stateDb = await database();
  const stateUrl = await serve(['--provider', 'memfs', '--state', stateDb]);
  const stateHandle = await agentAt(stateUrl);
  // Alternating rounds, medians: the two configurations see the same noise of a shared machine.
  const rounds = { memory: [], state: [] };
  for (let round = 0; round < 7; round++) {
    rounds.memory.push(await sequential(memoryUrl, memoryHandle));
    rounds.state.push(await sequential(stateUrl, stateHandle));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const memoryMs = median(rounds.memory);
  // pg_stat_database hears of a backend's commits once it has been idle a while (up to 10 s).
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  // Background statements (lease renewals, the expiry sweep) are counted over an idle window of
  // the same length and taken off.
  const before = await commits(stateDb);
  const started = Date.now();
  await sequential(stateUrl, stateHandle);
  const busyMs = Date.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const during = await commits(stateDb);
  await new Promise((resolve) => setTimeout(resolve, busyMs));
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const idle = (await commits(stateDb)) - during - 1;
  // Minus the one commit of each reading itself.
  const roundTrips = (during - before - 1 - idle) / (SEQUENTIAL + WARMUP);
  const stateMs = median(rounds.state);

  const alone = await serve([...files, '--state', db]);
  const second = await serve([...files, '--state', db]);
  const handle = await agentAt(alone);
  const aloneRate = await throughput(alone, handle);
  const balanced = await balancer([alone.host, second.host]);
  const balancedRate = await throughput(balanced, handle);
  console.log(
    `one 100-byte read with process, sequential: ${memoryMs.toFixed(2)} ms (processes in memory), ${stateMs.toFixed(2)} ms (--state PostgreSQL): +${(stateMs - memoryMs).toFixed(2)} ms, ${roundTrips.toFixed(2)} state round trips per call`,
  );
  console.log(
    `${CONCURRENCY} concurrent agents, --provider postgres --state: one instance alone ${aloneRate.toFixed(0)} calls/s; two instances behind HAProxy ${balancedRate.toFixed(0)} calls/s (${(balancedRate / aloneRate).toFixed(2)}x)`,
  );
} finally {
  for (const cleanup of cleanups) cleanup();
  await rm(work, { recursive: true, force: true });
}
