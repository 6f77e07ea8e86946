// `pnpm bench` (root) or `pnpm --filter @libos/bench bench`: libos mcp against the MCP reference
// filesystem server, side by side, with the floors. Prints the table, writes results/latest.json and
// the results block of BENCHMARKS.md. LIBOS_BENCH_SCALE=N multiplies the per-call samples;
// LIBOS_BENCH_ONLY=calls,delete (stages: start, calls, rss, write, delete) runs a part and writes nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { benchDelete, benchInProcessWrite } from './in-process-scenarios.mjs';
import { makeFixtures } from './make-fixtures.mjs';
import { benchCalls, benchPeakRss, benchStart } from './mcp-scenarios.mjs';
import { describeMachine, tableLines, updateBenchmarks, withRatios } from './report.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const scale = Number(process.env.LIBOS_BENCH_SCALE ?? 1);
const only = process.env.LIBOS_BENCH_ONLY?.split(',');
const runs = (name) => only === undefined || only.includes(name);
if (!existsSync(here('../../apps/cli/dist/main.js'))) {
  console.error('libos bench: apps/cli/dist/main.js is missing; run `pnpm build` (root `pnpm bench` builds first)');
  process.exit(1);
}

const started = performance.now();
const root = await makeFixtures();
const machine = describeMachine(root);
const stage = (name) => console.error(`libos bench: ${name} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
const rows = [];
try {
  if (runs('start')) {
    stage('start + initialize');
    rows.push(...(await benchStart(root, 10)));
  }
  if (runs('calls')) {
    stage('calls over stdio');
    rows.push(...(await benchCalls(root, scale)));
  }
  if (runs('rss')) {
    stage('peak RSS');
    rows.push(...(await benchPeakRss(root, 3)));
  }
  if (runs('write')) {
    stage('in-process write');
    rows.push(...(await benchInProcessWrite(root, scale)));
  }
  if (runs('delete')) {
    stage('recursive delete');
    rows.push(...(await benchDelete(root, 10_000, 7 * scale)));
    rows.push(...(await benchDelete(root, 50_000, 3 * scale)));
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

let commit = 'unknown';
try {
  commit = execFileSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8', cwd: here('.') }).trim();
} catch {}
const results = {
  finished_at: new Date().toISOString(),
  elapsed_s: Math.round((performance.now() - started) / 1000),
  command: `${process.env.LIBOS_BENCH_SCALE ? `LIBOS_BENCH_SCALE=${scale} ` : ''}${process.env.npm_lifecycle_event === 'bench' ? 'pnpm bench' : 'node bench/src/main.mjs'}`,
  commit,
  machine: { ...machine, load_average_at_end: (await import('node:os')).loadavg().map((value) => Number(value.toFixed(2))) },
  rows: withRatios(rows),
};
console.log(tableLines(results.rows).join('\n'));
if (only !== undefined) {
  console.error(`libos bench: a partial run (LIBOS_BENCH_ONLY=${only.join(',')}) writes no results`);
  process.exit(0);
}
mkdirSync(here('../results'), { recursive: true });
writeFileSync(here('../results/latest.json'), JSON.stringify(results, null, 2) + '\n');
updateBenchmarks(here('../../BENCHMARKS.md'), results);
console.error(`libos bench: done in ${results.elapsed_s} s; wrote bench/results/latest.json and BENCHMARKS.md`);
