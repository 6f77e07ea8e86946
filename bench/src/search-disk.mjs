// search_files on a local disk of 10,000 files, through `searchTree` and through the walk of the
// same provider without it, side by side in one run with `grep -r` and `rg -j2` on the same tree:
// alternating rounds, medians, the load printed before and after. The tools are timed in process
// (no process start); grep and rg are timed around their spawn, process start included.
// Run: pnpm turbo run build && node bench/src/search-disk.mjs
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLocalProvider, searchThreadStats } from '@libos/provider-local';
import { createLocalProviderWithHooks } from '@libos/provider-local/testing';
import { createRuntime } from '@libos/tools';
import { median } from './median.mjs';

const DIRECTORIES = 100;
const FILES = 100;
const ROUNDS = 7;
const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

const base = mkdtempSync(join(tmpdir(), 'libos-search-disk-'));
const root = join(base, 'workspace');
const line = (d, f) => `export const value${d}_${f} = compute(${d}, ${f}); // some ordinary line of code\n`;
for (let d = 0; d < DIRECTORIES; d++) {
  mkdirSync(join(root, 'src', `d${d}`), { recursive: true });
  for (let f = 0; f < FILES; f++) {
    const content = line(d, f).repeat(40) + (d === 37 && f === 11 ? 'const needle = findTheNeedle();\n' : '');
    writeFileSync(join(root, 'src', `d${d}`, `f${f}.ts`), content);
  }
}

// As `libos mcp` runs it: the provider may borrow the working directory.
const provider = createLocalProvider({ root, borrowWorkingDirectory: true });
const { searchTree: _unused, ...walkOnly } = provider;
const pushed = (await createRuntime({ provider })).spawn();
const walked = (await createRuntime({ provider: walkOnly })).spawn();
// A provider with a testing hook searches on the calling thread: searchTree without the threads.
const calling = createLocalProviderWithHooks({ root, borrowWorkingDirectory: true }, { afterResolveStep: () => undefined });
const here = (await createRuntime({ provider: calling })).spawn();
const rg = spawnSync('rg', ['--version']).status === 0;

const searches = [
  ['literal', 'findTheNeedle', { query: 'findTheNeedle' }, ['-F']],
  ['regex', 'find\\w+Needle\\(', { query: 'find\\w+Needle\\(', regex: true }, ['-E']],
  ['case-insensitive', 'findtheneedle', { query: 'findtheneedle', case_sensitive: false }, ['-i', '-F']],
];

function tool(agent, args) {
  return async () => {
    const outcome = await agent.call('search_files', { path: 'src', ...args, max_files: 20_000, deadline_ms: 60_000 });
    if (!outcome.ok || outcome.result.count !== 1) throw new Error(JSON.stringify(outcome));
  };
}

// The floor of any search done in Node: list each directory, open, read and close each file into
// one reused buffer, and nothing else (no check, no match). Where this is above a target, no
// search in Node reaches it on this machine.
const floorBuffer = Buffer.allocUnsafe(1 << 20);
function floor() {
  return async () => {
    const visit = (directory) => {
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        const path = join(directory, entry.name);
        if (entry.isDirectory()) visit(path);
        else {
          const fd = openSync(path, 'r');
          readSync(fd, floorBuffer, 0, floorBuffer.length, 0);
          closeSync(fd);
        }
      }
    };
    visit(join(root, 'src'));
  };
}

function command(file, args) {
  return async () => {
    const run = spawnSync(file, args, { cwd: root, encoding: 'utf8' });
    if (run.status !== 0 || run.stdout.trim().split('\n').length !== 1) throw new Error(`${file}: ${run.status} ${run.stderr}`);
  };
}

console.log(
  `search_files on local disk, ${DIRECTORIES * FILES} files in ${DIRECTORIES} directories, ${searchThreadStats().maxThreads} search threads; load before ${load()}`,
);
console.log(
  '| search | searchTree ms | one thread ms | walk ms | floor ms | grep -r ms | rg -j2 ms | searchTree/grep | searchTree/rg | one thread/grep | one thread/rg | walk/grep | walk/rg | floor/grep | floor/rg |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const [name, pattern, args, grepFlags] of searches) {
  const sides = {
    pushed: tool(pushed, args),
    here: tool(here, args),
    walked: tool(walked, args),
    floor: floor(),
    grep: command('grep', ['-r', ...grepFlags, pattern, 'src']),
    ...(rg ? { rg: command('rg', ['-j2', '--no-ignore', ...(grepFlags.includes('-i') ? ['-i'] : []), pattern, 'src']) } : {}),
  };
  const times = Object.fromEntries(Object.keys(sides).map((side) => [side, []]));
  const order = Object.keys(sides);
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with another side, so a warm cache or a burst of load favours no one.
    for (let step = 0; step < order.length; step++) {
      const side = order[(round + step) % order.length];
      const start = performance.now();
      await sides[side]();
      times[side].push(performance.now() - start);
    }
  }
  const m = Object.fromEntries(Object.entries(times).map(([side, values]) => [side, median(values)]));
  const ratio = (a, b) => (b === undefined ? 'n/a' : `${(a / b).toFixed(2)}x`);
  console.log(
    `| ${name} | ${m.pushed.toFixed(1)} | ${m.here.toFixed(1)} | ${m.walked.toFixed(1)} | ${m.floor.toFixed(1)} | ${m.grep.toFixed(1)} | ${m.rg?.toFixed(1) ?? 'n/a'} | ${ratio(m.pushed, m.grep)} | ${ratio(m.pushed, m.rg)} | ${ratio(m.here, m.grep)} | ${ratio(m.here, m.rg)} | ${ratio(m.walked, m.grep)} | ${ratio(m.walked, m.rg)} | ${ratio(m.floor, m.grep)} | ${ratio(m.floor, m.rg)} |`,
  );
}
console.log(`load after ${load()}`);
await provider.close();
await calling.close();
rmSync(base, { recursive: true, force: true });
