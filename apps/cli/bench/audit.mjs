// Bench of `libos mcp --audit` over stdio (target at most 5% added to a 100-byte read_text_file).
// Run `npx tsup` first (root `pnpm bench` builds everything). The baseline, the same server without
// --audit, runs in the same process tree, interleaved round by round so that a change in machine
// load hits both alike; each server serves its own copy of one seed directory on the local disk. Besides the clock, it reports
// the CPU time each server process spent per call (Linux, from /proc): on a machine other work shares, the clock also counts
// the time the processes waited for a core, the CPU time only the work done.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const LIBOS = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const ROUNDS = 15;
const CALLS_PER_ROUND = 300;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function connect(args) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [LIBOS, 'mcp', ...args], stderr: 'pipe' });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

// Microseconds of CPU time (user and system, every thread) a process has spent, or undefined off Linux.
function cpuOf(pid) {
  const stat = `/proc/${pid}/stat`;
  if (pid === null || !existsSync(stat)) return undefined;
  const fields = readFileSync(stat, 'utf8').split(') ')[1].split(' ');
  // utime and stime, in clock ticks (USER_HZ, 100 on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function round(client) {
  const started = performance.now();
  for (let call = 0; call < CALLS_PER_ROUND; call += 1) {
    const result = await client.callTool({ name: 'read_text_file', arguments: { path: 'small.txt' } });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  }
  return ((performance.now() - started) * 1000) / CALLS_PER_ROUND;
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

const directory = mkdtempSync(join(tmpdir(), 'libos-audit-mcp-bench-'));
try {
  const loadBefore = load();
  for (const name of ['plain', 'audited']) {
    mkdirSync(join(directory, name));
    writeFileSync(join(directory, name, 'small.txt'), 'x'.repeat(100));
  }
  const plain = await connect(['--root', join(directory, 'plain')]);
  const audited = await connect(['--root', join(directory, 'audited'), '--audit', join(directory, 'audit.log')]);
  await round(plain.client);
  await round(audited.client);
  const plainCpu = cpuOf(plain.pid);
  const auditedCpu = cpuOf(audited.pid);
  const without = [];
  const withAudit = [];
  for (let index = 0; index < ROUNDS; index += 1) {
    without.push(await round(plain.client));
    withAudit.push(await round(audited.client));
  }
  const calls = ROUNDS * CALLS_PER_ROUND;
  const cpu =
    plainCpu === undefined || auditedCpu === undefined
      ? ''
      : (() => {
          const base = (cpuOf(plain.pid) - plainCpu) / calls;
          const cost = (cpuOf(audited.pid) - auditedCpu) / calls;
          return `; server CPU ${base.toFixed(0)} us and ${cost.toFixed(0)} us per call: ${(((cost - base) / base) * 100).toFixed(1)}% added`;
        })();
  await plain.client.close();
  await audited.client.close();
  const base = median(without);
  const cost = median(withAudit);
  console.log(
    `100-byte read over libos mcp stdio (local disk): ${base.toFixed(0)} us without --audit, ${cost.toFixed(0)} us with: ${(((cost - base) / base) * 100).toFixed(1)}% added (target <= 5%)${cpu}`,
  );
  console.log(`  load average ${loadBefore} before, ${load()} after`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
