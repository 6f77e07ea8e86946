// Recursive delete of a 50,000-file tree: provider.deleteDirectory vs `rm -rf`, alternating rounds.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalProvider } from '@libos/provider-local';
import { median, scratch } from './bench-util.mjs';

// 10 top directories x 5 subdirectories x 1000 files = 50,000 files in 61 directories.
function buildTree(directory) {
  mkdirSync(directory);
  for (let top = 0; top < 10; top++) {
    for (let sub = 0; sub < 5; sub++) {
      const leaf = join(directory, `top-${top}`, `sub-${sub}`);
      mkdirSync(leaf, { recursive: true });
      for (let file = 0; file < 1000; file++) closeSync(openSync(join(leaf, `file-${file}.txt`), 'w'));
    }
  }
}

export async function benchRecursiveDelete(rounds = 2) {
  const { base, done } = scratch('delete');
  try {
    const provider = createLocalProvider({ root: base });
    const ours = [];
    const baseline = [];
    for (let round = 0; round < rounds; round++) {
      buildTree(join(base, 'tree-ours'));
      buildTree(join(base, 'tree-rm'));
      const runs = [
        [ours, () => provider.deleteDirectory('tree-ours', { recursive: true, missingOk: false })],
        [baseline, () => execFileSync('rm', ['-rf', join(base, 'tree-rm')])],
      ];
      if (round % 2 === 1) runs.reverse();
      for (const [times, run] of runs) {
        const start = performance.now();
        await run();
        times.push(performance.now() - start);
      }
    }
    const ratio = median(ours) / median(baseline);
    console.log(
      `recursive delete of 50,000 files, provider.deleteDirectory vs rm -rf: ${median(ours).toFixed(0)} ms vs ` +
        `${median(baseline).toFixed(0)} ms ratio ${ratio.toFixed(2)}x (target <= 1.5x)`,
    );
    await provider.close();
  } finally {
    done();
  }
}
