// One 100-byte read over MCP 2026-07-28 through the SDK v2 client, against an SDK v2 stub that
// answers the same reply with no work (stub-server-v2.mjs), over the same transport: HTTP
// (`libos serve`) and stdio (`libos mcp`). Issue 33 targets: at most 1.3x on each. Over stdio a
// third server, the stub that also reads the file per call, shows what the read itself costs. All
// in alternating rounds of one run; the machine's load is printed with the ratios.
// Run: node src/modern-call.mjs
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { alternate } from './alternate.mjs';
import { startServe } from './start-serve.mjs';

const CLI = process.env.LIBOS_BENCH_CLI ?? fileURLToPath(new URL('../../apps/cli/dist/main.js', import.meta.url));
const STUB = fileURLToPath(new URL('./stub-server-v2.mjs', import.meta.url));
const ROUNDS = Number(process.env.LIBOS_BENCH_ROUNDS ?? 6);
const CALLS = Number(process.env.LIBOS_BENCH_CALLS ?? 100);
const ARGS = { path: 'small.txt' };

async function connect(transport) {
  const client = new Client({ name: 'libos-bench-modern', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  return client;
}

function stdioTransport(args) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' });
  transport.stderr?.on('data', () => {});
  return transport;
}

/**
 * CPU milliseconds a process has used (user + system, Linux's /proc), or undefined elsewhere. A
 * loaded machine stretches every wall-clock time by the scheduling of other processes (a write that
 * wakes the client may hand it the core); the CPU a server spends per call is its own work.
 */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

function startStubHttp(replyFile) {
  const child = spawn(process.execPath, [STUB, 'http', replyFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const match = /on (http:\/\/\S+\/mcp)/u.exec(log);
      if (match) resolve({ child, url: new URL(match[1]) });
    });
    child.once('exit', (status) => reject(new Error(`stub exited ${status}: ${log}`)));
  });
}

const root = await mkdtemp(join(tmpdir(), 'libos-bench-modern-'));
const children = [];
try {
  await writeFile(join(root, 'small.txt'), 'x'.repeat(100));
  const libosStdioTransport = stdioTransport([CLI, 'mcp', '--root', root]);
  const libosStdio = await connect(libosStdioTransport);
  // The stub answers exactly what libos answers, so both write the same bytes.
  const reply = await libosStdio.callTool({ name: 'read_text_file', arguments: ARGS });
  const replyFile = join(root, 'reply.json');
  await writeFile(replyFile, JSON.stringify(reply));
  const stubStdioTransport = stdioTransport([STUB, 'stdio', replyFile]);
  const stubStdio = await connect(stubStdioTransport);
  // A stub that also reads the file per call: the least work any server answering this read does.
  const readingStdioTransport = stdioTransport([STUB, 'stdio', replyFile, join(root, 'small.txt')]);
  const readingStdio = await connect(readingStdioTransport);
  const served = await startServe(CLI, root, ['--single-user']);
  children.push(served.child);
  const libosHttp = await connect(new StreamableHTTPClientTransport(served.url));
  const stub = await startStubHttp(replyFile);
  children.push(stub.child);
  const stubHttp = await connect(new StreamableHTTPClientTransport(stub.url));
  const call = (client) => async () => {
    const result = await client.callTool({ name: 'read_text_file', arguments: ARGS });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  };
  const pids = {
    libosHttp: served.child.pid,
    stubHttp: stub.child.pid,
    libosStdio: libosStdioTransport.pid,
    stubStdio: stubStdioTransport.pid,
    readingStdio: readingStdioTransport.pid,
  };
  const WARMUP = 50;
  const before = loadavg();
  const cpuBefore = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const times = await alternate(
    {
      libosHttp: call(libosHttp),
      stubHttp: call(stubHttp),
      libosStdio: call(libosStdio),
      stubStdio: call(stubStdio),
      readingStdio: call(readingStdio),
    },
    { rounds: ROUNDS, calls: CALLS, warmup: WARMUP },
  );
  const cpu = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => {
      const used = cpuMs(pid);
      return [name, used === undefined || cpuBefore[name] === undefined ? undefined : (used - cpuBefore[name]) / (WARMUP + ROUNDS * CALLS)];
    }),
  );
  const after = loadavg();
  const cpuRow = (ours, floor) =>
    ours === undefined || floor === undefined ? '' : ` ${ours.toFixed(3)} ms | ${floor.toFixed(3)} ms | ${(ours / floor).toFixed(2)}x |`;
  const row = (label, ours, floor, cpuOurs, cpuFloor) =>
    `| ${label} | ${ours.toFixed(3)} ms | ${floor.toFixed(3)} ms | ${(ours / floor).toFixed(2)}x | 1.3x |${cpuRow(cpuOurs, cpuFloor)}`;
  console.log(
    [
      `MCP 2026-07-28, one 100-byte read, SDK v2 client; medians of ${ROUNDS} x ${CALLS} calls each, alternating`,
      `machine load (1-minute average, ${cpus().length} cores): ${before[0].toFixed(2)} before, ${after[0].toFixed(2)} after`,
      '',
      '| transport | libos | SDK v2 stub (constant reply) | ratio | target | libos server CPU per call | stub server CPU per call | CPU ratio |',
      '|---|---|---|---|---|---|---|---|',
      row('Streamable HTTP', times.libosHttp, times.stubHttp, cpu.libosHttp, cpu.stubHttp),
      row('stdio', times.libosStdio, times.stubStdio, cpu.libosStdio, cpu.stubStdio),
      row('stdio, against a stub that also reads the file', times.libosStdio, times.readingStdio, cpu.libosStdio, cpu.readingStdio),
    ].join('\n'),
  );
  for (const client of [libosHttp, stubHttp, libosStdio, stubStdio, readingStdio]) await client.close();
} finally {
  for (const child of children) child.kill('SIGTERM');
  await rm(root, { recursive: true, force: true });
}
