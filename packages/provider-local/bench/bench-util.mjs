// Shared helpers of the provider-local benchmarks: timing, ratios and scratch directories.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A scratch directory for one benchmark, removed by `done`. */
export function scratch(label) {
  const base = mkdtempSync(join(tmpdir(), `libos-bench-${label}-`));
  return { base, done: () => rmSync(base, { recursive: true, force: true }) };
}

/** Median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Times `ours` against `baseline` in alternating rounds (so load drifts hit both alike) and returns
 * the median time per call of each, in milliseconds.
 */
export async function compare({ ours, baseline, rounds = 7, callsPerRound = 1, warmup = 1 }) {
  for (let index = 0; index < warmup; index++) {
    await ours();
    await baseline();
  }
  const oursTimes = [];
  const baselineTimes = [];
  for (let round = 0; round < rounds; round++) {
    for (const [body, times] of round % 2 === 0
      ? [
          [ours, oursTimes],
          [baseline, baselineTimes],
        ]
      : [
          [baseline, baselineTimes],
          [ours, oursTimes],
        ]) {
      const start = performance.now();
      for (let call = 0; call < callsPerRound; call++) await body();
      times.push((performance.now() - start) / callsPerRound);
    }
  }
  return { ours: median(oursTimes), baseline: median(baselineTimes) };
}

/** Prints one comparison line: both times and the ratio against its target. */
export function report(label, { ours, baseline }, target, unit = 'ms') {
  const ratio = ours / baseline;
  const scale = unit === 'µs' ? 1000 : 1;
  console.log(
    `${label}: ${(ours * scale).toFixed(unit === 'µs' ? 1 : 2)} ${unit} vs ${(baseline * scale).toFixed(unit === 'µs' ? 1 : 2)} ${unit}` +
      ` ratio ${ratio.toFixed(2)}x (target <= ${target}x)`,
  );
  return ratio;
}

/** Imports the tools runtime when it is built; benchmarks through it are skipped otherwise. */
export async function loadTools() {
  try {
    return await import('@libos/tools');
  } catch (error) {
    console.log(`  (tools runtime not built, skipping the runtime rows: ${error.code ?? error.message})`);
    return undefined;
  }
}
