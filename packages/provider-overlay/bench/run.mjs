// Benchmarks of docs/overlay.md "Cost" (never a test): node bench/run.mjs (needs a build).
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { openOverlay } from '@libos/provider-overlay';

const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const base = mkdtempSync(join(tmpdir(), 'libos-overlay-bench-'));
const root = join(base, 'ws');
const path = (name) => resolveWorkspacePath(ROOT_PATH, name);
const bytes = (text) => new TextEncoder().encode(text);
const time = async (rounds, body) => {
  const start = process.hrtime.bigint();
  for (let index = 0; index < rounds; index++) await body(index);
  return Number(process.hrtime.bigint() - start) / 1e6 / rounds;
};
// CPU time (this process, all its threads) per call: what the overlay adds, less blurred by other load.
const cpuTime = async (rounds, body) => {
  const start = process.cpuUsage();
  for (let index = 0; index < rounds; index++) await body(index);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / rounds;
};
try {
  for (let directory = 0; directory < FILES / 1000; directory++) {
    mkdirSync(join(root, `d${directory}`), { recursive: true });
    for (let file = 0; file < 1000; file++) writeFileSync(join(root, `d${directory}`, `f${file}.txt`), `file ${file}\n`);
  }
  const lower = createLocalProvider({ root });
  const overlay = await openOverlay({ lower, state: join(base, 'bench.overlay'), lowerRoot: root });
  for (let index = 0; index < 10; index++) await overlay.provider.writeFile(path(`d${index}/f1.txt`), bytes('changed\n'), { overwrite: true });
  await overlay.changes();
  const changes = await time(50, () => overlay.changes());
  console.log(`changes, ${FILES}-file lower, 10 changes: ${changes.toFixed(2)} ms (target <= 50 ms)`);
  // Lower and overlay alternate in short rounds (their order swapping), so a loaded machine's drift
  // falls on both; the ratio is the median of the rounds'. `spread` reads 40,000 different files
  // before one repeats (the overlay has never looked at the path before); `repeat` reads 1,000 again and again.
  const readRatio = async (name, pathOf) => {
    const read = (provider) => (index) => provider.readFile(path(pathOf(index)), { maxBytes: 65536 });
    await time(2000, read(lower));
    await time(2000, read(overlay.provider));
    const ratios = [];
    const cpuRatios = [];
    let lowerTotal = 0;
    let overlayTotal = 0;
    for (let round = 0; round < 20; round++) {
      const offset = 2000 + round * 2000;
      const shifted =
        (provider, from = offset) =>
        (index) =>
          read(provider)(from + index);
      const first = round % 2 === 0 ? lower : overlay.provider;
      const second = first === lower ? overlay.provider : lower;
      const a = await time(1000, shifted(first));
      const b = await time(1000, shifted(second));
      const [lowerMs, overlayMs] = first === lower ? [a, b] : [b, a];
      lowerTotal += lowerMs;
      overlayTotal += overlayMs;
      ratios.push(overlayMs / lowerMs);
      const c = await cpuTime(1000, shifted(first, offset + 1000));
      const d = await cpuTime(1000, shifted(second, offset + 1000));
      cpuRatios.push(first === lower ? d / c : c / d);
    }
    const medianOf = (values) => {
      const sorted = [...values].sort((x, y) => x - y);
      return (sorted[9] + sorted[10]) / 2;
    };
    const median = medianOf(ratios);
    console.log(
      `read of an unchanged file (${name}): lower ${((lowerTotal / 20) * 1000).toFixed(1)} us, overlay ${((overlayTotal / 20) * 1000).toFixed(1)} us, median ratio ${median.toFixed(2)}x, CPU ${medianOf(cpuRatios).toFixed(2)}x (target <= 1.3x)`,
    );
  };
  await readRatio('spread', (index) => `d${50 + (index % 40)}/f${Math.floor(index / 40) % 1000}.txt`);
  await readRatio('repeat', (index) => `d${50 + (index % 40)}/f${index % 1000}.txt`);
  await overlay.discard();
  for (let index = 0; index < 1000; index++)
    await overlay.provider.writeFile(path(`d90/f${index}.txt`), bytes(`applied ${index}\n`), { overwrite: true });
  const applyStart = process.hrtime.bigint();
  const result = await overlay.apply();
  const applyMs = Number(process.hrtime.bigint() - applyStart) / 1e6;
  const copyStart = process.hrtime.bigint();
  for (let index = 0; index < 1000; index++) {
    const target = join(root, 'd91', `f${index}.txt`);
    const temporary = `${target}.tmp`;
    const fd = openSync(temporary, 'w', 0o644);
    writeSync(fd, `copied ${index}\n`);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, target);
  }
  const directoryFd = openSync(join(root, 'd91'), 'r');
  fsyncSync(directoryFd);
  closeSync(directoryFd);
  const copyMs = Number(process.hrtime.bigint() - copyStart) / 1e6;
  console.log(
    `apply of 1,000 small changes: ${applyMs.toFixed(0)} ms (${result.applied.length} applied) vs durable Node copy ${copyMs.toFixed(0)} ms: ratio ${(applyMs / copyMs).toFixed(2)}x`,
  );
  await overlay.close();
  await lower.close();
} finally {
  rmSync(base, { recursive: true, force: true });
}
