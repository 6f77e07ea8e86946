// Recursive delete of a 10,000-file tree (the tree of the root bench: 10 top directories x 5
// subdirectories x 200 empty files): provider.deleteDirectory, with `libos mcp`'s options
// (borrowWorkingDirectory) and with the defaults, against spawning `rm -rf`, on fresh trees, in
// alternating rounds (order reversed every other round) in one run; medians, with the load average.
// `rm -rf` is timed from spawn to exit, so its side includes starting a process (about 1 ms).
// Run alone: `node packages/provider-local/bench/recursive-delete.mjs [files] [rounds]`.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalProvider } from '@libos/provider-local';
import { median, scratch } from './bench-util.mjs';

// 10 top directories x 5 subdirectories, files / 50 empty files in each.
function buildTree(directory, files) {
  mkdirSync(directory);
  for (let top = 0; top < 10; top++) {
    for (let sub = 0; sub < 5; sub++) {
      const leaf = join(directory, `top-${top}`, `sub-${sub}`);
      mkdirSync(leaf, { recursive: true });
      for (let file = 0; file < files / 50; file++) closeSync(openSync(join(leaf, `file-${file}.txt`), 'w'));
    }
  }
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

export async function benchRecursiveDelete(files = 10_000, rounds = 7) {
  const { base, done } = scratch('delete');
  const loadBefore = load();
  try {
    const providers = {
      mcp: createLocalProvider({ root: base, borrowWorkingDirectory: true }),
      defaults: createLocalProvider({ root: base }),
    };
    const bodies = {
      mcp: () => providers.mcp.deleteDirectory('tree-mcp', { recursive: true, missingOk: false }),
      defaults: () => providers.defaults.deleteDirectory('tree-defaults', { recursive: true, missingOk: false }),
      rm: () => execFileSync('rm', ['-rf', join(base, 'tree-rm')]),
    };
    const times = { mcp: [], defaults: [], rm: [] };
    const names = Object.keys(bodies);
    for (let round = -1; round < rounds; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        buildTree(join(base, `tree-${name}`), files);
        const start = performance.now();
        await bodies[name]();
        // Round -1 warms up (JIT, page cache of the binaries) and is not counted.
        if (round >= 0) times[name].push(performance.now() - start);
      }
    }
    const rm = median(times.rm);
    const count = files.toLocaleString('en');
    for (const [name, label] of [
      ['mcp', "libos mcp's options (borrowWorkingDirectory)"],
      ['defaults', 'default options'],
    ]) {
      const ours = median(times[name]);
      console.log(
        `recursive delete of ${count} files, provider.deleteDirectory with ${label} vs rm -rf: ${ours.toFixed(1)} ms vs ` +
          `${rm.toFixed(1)} ms ratio ${(ours / rm).toFixed(2)}x${name === 'mcp' ? ' (target <= 1.2x)' : ''}`,
      );
    }
    console.log(`  ${rounds} rounds, medians; load average ${loadBefore} before, ${load()} after`);
    await providers.mcp.close();
    await providers.defaults.close();
  } finally {
    done();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchRecursiveDelete(Number(process.argv[2] ?? 10_000), Number(process.argv[3] ?? 7));
}
