// Benchmarks of docs/overlay.md "Merge, hunks and forks" (never a test): node bench/merge.mjs
// (needs a build). A fork of an overlay with 10 changes over a 100,000-file lower (target <= 50 ms),
// and a merged apply of 1,000 small files against a plain apply of the same (the ratio).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { openOverlay } from '@libos/provider-overlay';

const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const base = mkdtempSync(join(tmpdir(), 'libos-merge-bench-'));
const root = join(base, 'ws');
const path = (name) => resolveWorkspacePath(ROOT_PATH, name);
const bytes = (text) => new TextEncoder().encode(text);
const lines = (label) => Array.from({ length: 30 }, (_, index) => `${label} line ${index}\n`).join('');
const edit = (text, line, value) =>
  text
    .split('\n')
    .map((each, index) => (index === line ? value : each))
    .join('\n');
const elapsed = (start) => Number(process.hrtime.bigint() - start) / 1e6;
try {
  for (let directory = 0; directory < FILES / 1000; directory++) {
    mkdirSync(join(root, `d${directory}`), { recursive: true });
    for (let file = 0; file < 1000; file++) writeFileSync(join(root, `d${directory}`, `f${file}.txt`), lines(`f${file}`));
  }
  const lower = createLocalProvider({ root });
  const overlay = await openOverlay({ lower, state: join(base, 'bench.overlay'), lowerRoot: root });
  for (let index = 0; index < 10; index++)
    await overlay.provider.writeFile(path(`d${index}/f1.txt`), bytes(edit(lines('f1'), 20, 'agent')), { overwrite: true });
  const forks = [];
  for (let round = 0; round < 20; round++) {
    const start = process.hrtime.bigint();
    await overlay.fork(join(base, `fork-${round}.overlay`));
    forks.push(elapsed(start));
  }
  forks.sort((a, b) => a - b);
  console.log(`fork, ${FILES}-file lower, 10 changes: median ${forks[10].toFixed(2)} ms, max ${forks.at(-1).toFixed(2)} ms (target <= 50 ms)`);
  await overlay.discard();

  // 1,000 small files changed by the agent at line 20; plain: the disk still holds the base; merged:
  // the person edited line 2 of each first. Alternated over rounds, each from a fresh overlay.
  const applyOnce = async (round, merged) => {
    const state = join(base, `apply-${round}-${merged ? 'merged' : 'plain'}.overlay`);
    const dir = 90 + (round % 5);
    for (let file = 0; file < 1000; file++) writeFileSync(join(root, `d${dir}`, `f${file}.txt`), lines(`f${file}`));
    const agent = await openOverlay({ lower, state, lowerRoot: root });
    for (let file = 0; file < 1000; file++)
      await agent.provider.writeFile(path(`d${dir}/f${file}.txt`), bytes(edit(lines(`f${file}`), 20, 'agent')), { overwrite: true });
    if (merged) for (let file = 0; file < 1000; file++) writeFileSync(join(root, `d${dir}`, `f${file}.txt`), edit(lines(`f${file}`), 2, 'person'));
    const start = process.hrtime.bigint();
    const result = await agent.apply({ mode: 'per_file' });
    const took = elapsed(start);
    if (result.applied.length !== 1000 || result.conflicts.length !== 0) throw new Error(`unexpected apply: ${result.conflicts.length} conflicts`);
    await agent.close();
    return took;
  };
  const plain = [];
  const merged = [];
  for (let round = 0; round < 6; round++) {
    if (round % 2 === 0) {
      plain.push(await applyOnce(round, false));
      merged.push(await applyOnce(round, true));
    } else {
      merged.push(await applyOnce(round, true));
      plain.push(await applyOnce(round, false));
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(
    `apply of 1,000 small files: plain ${median(plain).toFixed(0)} ms, merged ${median(merged).toFixed(0)} ms, ratio ${(median(merged) / median(plain)).toFixed(2)}x`,
  );
  await overlay.close();
  await lower.close();
} finally {
  rmSync(base, { recursive: true, force: true });
}
