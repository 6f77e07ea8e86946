// search_files on a local disk of 10,000 files answered from the trigram index of `--index DIR`
// (@libos/search-index), warm, side by side in one run with the walk of the same provider and
// `rg -j2` on the same tree: alternating rounds, medians, the load printed before and after. The
// tools are timed in process; rg around its spawn, process start included. Then the index's
// memory and disk against the tree's bytes.
// Run: pnpm turbo run build && node bench/src/search-index.mjs
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLocalProvider } from '@libos/provider-local';
import { withSearchIndex } from '@libos/search-index';
import { createRuntime } from '@libos/tools';
import { median } from './median.mjs';

const DIRECTORIES = 100;
const FILES = 100;
const ROUNDS = 9;
const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

const base = mkdtempSync(join(tmpdir(), 'libos-search-index-'));
const root = join(base, 'workspace');
const line = (d, f) => `export const value${d}_${f} = compute(${d}, ${f}); // some ordinary line of code\n`;
for (let d = 0; d < DIRECTORIES; d++) {
  mkdirSync(join(root, 'src', `d${d}`), { recursive: true });
  for (let f = 0; f < FILES; f++) {
    const content = line(d, f).repeat(40) + (d === 37 && f === 11 ? 'const needle = findTheNeedle();\n' : '');
    writeFileSync(join(root, 'src', `d${d}`, `f${f}.ts`), content);
  }
}

const provider = createLocalProvider({ root, borrowWorkingDirectory: true });
const { searchTree: _unused, ...walkOnly } = provider;
const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
const indexed = withSearchIndex(provider, { directory: join(base, 'index') });
const coldStart = performance.now();
await indexed.warm();
const coldMs = performance.now() - coldStart;
globalThis.gc?.();
const heapAfter = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
const fromIndex = (await createRuntime({ provider: indexed.provider })).spawn();
const walked = (await createRuntime({ provider: walkOnly })).spawn();

const searches = [
  // The last column: the needles the tools pass for that search (folded ones for a case-insensitive one).
  ['regex', 'find\\w+Needle\\(', { query: 'find\\w+Needle\\(', regex: true }, ['-E'], { needles: ['find', 'Needle('] }],
  ['literal', 'findTheNeedle', { query: 'findTheNeedle' }, ['-F'], { needles: ['findTheNeedle'] }],
  ['case-insensitive', 'findtheneedle', { query: 'findtheneedle', case_sensitive: false }, ['-i', '-F'], { folded: ['findtheneedle'] }],
];

function tool(agent, args) {
  return async () => {
    const outcome = await agent.call('search_files', { path: 'src', ...args, max_files: 20_000, deadline_ms: 60_000 });
    if (!outcome.ok || outcome.result.count !== 1 || outcome.result.files_searched !== DIRECTORIES * FILES) throw new Error(JSON.stringify(outcome));
  };
}

// The index's own part: the barrier, the check of what changed, and the answer (no tools' walk).
function answer({ needles = [], folded = [] }) {
  const bytes = (strings) => strings.map((text) => new Uint8Array(Buffer.from(text)));
  return async () => {
    const tree = await indexed.provider.searchTree('src', {
      needles: bytes(needles),
      foldedNeedles: bytes(folded),
      alwaysNames: ['.gitignore'],
      maxBytes: 1_048_576,
      maxEntries: 100_000,
      maxCarriedBytes: 0,
    });
    const candidates = [...tree.listings.values()].reduce((sum, listing) => sum + listing.candidates.size, 0);
    if (!tree.complete || candidates !== 1) throw new Error('the index answered wrong');
  };
}

function command(file, args) {
  return async () => {
    const run = spawnSync(file, args, { cwd: root, encoding: 'utf8' });
    if (run.status !== 0 || run.stdout.trim().split('\n').length !== 1) throw new Error(`${file}: ${run.status} ${run.stderr}`);
  };
}

const rg = spawnSync('rg', ['--version']).status === 0;
console.log(`search_files from the index, ${DIRECTORIES * FILES} files in ${DIRECTORIES} directories; load before ${load()}`);
console.log(`cold build of the index: ${coldMs.toFixed(0)} ms`);
console.log('| search | index ms | walk ms | rg -j2 ms | rg/index | walk/index | searchTree alone ms | rg/searchTree |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, pattern, args, flags, needles] of searches) {
  const sides = {
    index: tool(fromIndex, args),
    walked: tool(walked, args),
    ...(needles === undefined ? {} : { answer: answer(needles) }),
    ...(rg ? { rg: command('rg', ['-j2', '--no-ignore', ...(flags.includes('-i') ? ['-i'] : []), pattern, 'src']) } : {}),
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
  const ratio = (a, b) => (a === undefined ? 'n/a' : `${(a / b).toFixed(1)}x`);
  const alone = m.answer === undefined ? 'n/a' : m.answer.toFixed(1);
  console.log(
    `| ${name} | ${m.index.toFixed(1)} | ${m.walked.toFixed(1)} | ${m.rg?.toFixed(1) ?? 'n/a'} | ${ratio(m.rg, m.index)} | ${ratio(m.walked, m.index)} | ${alone} | ${m.answer === undefined ? 'n/a' : ratio(m.rg, m.answer)} |`,
  );
}
const stats = indexed.stats();
const mib = (bytes) => `${(bytes / 1_048_576).toFixed(2)} MiB`;
const share = (bytes) => `${((100 * bytes) / stats.treeBytes).toFixed(0)}% of the tree`;
console.log(`tree: ${stats.files} files, ${mib(stats.treeBytes)}`);
console.log(`index filters in memory: ${mib(stats.filterBytes)} (${share(stats.filterBytes)})`);
console.log(
  `index heap growth (listings and filters${globalThis.gc ? ', after gc' : ', run with --expose-gc for less noise'}): ${mib(heapAfter - heapBefore)} (${share(heapAfter - heapBefore)})`,
);
console.log(`index on disk: ${mib(stats.snapshotBytes)} (${share(stats.snapshotBytes)})`);
console.log(`load after ${load()}`);
await indexed.provider.close();
rmSync(base, { recursive: true, force: true });
