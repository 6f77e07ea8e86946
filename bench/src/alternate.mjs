import { performance } from 'node:perf_hooks';
import { median } from './median.mjs';

/**
 * Times each body in alternating rounds, the order reversed every other round, so that a change in
 * the machine's load (other processes on these 2 cores) hits every body alike. Each round runs
 * `calls` calls of each body; every call is one sample (a body that returns a number
 * times itself: that number is its sample). Returns the median milliseconds per body.
 * `prepare`, when given, runs untimed before each body's batch (e.g. rebuilding what it deletes).
 */
export async function alternate(bodies, { rounds, calls = 1, warmup = 0, prepare }) {
  const names = Object.keys(bodies);
  for (let index = 0; index < warmup; index++) {
    for (const name of names) {
      if (prepare) await prepare(name);
      await bodies[name]();
    }
  }
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      for (let call = 0; call < calls; call++) {
        if (prepare) await prepare(name);
        const started = performance.now();
        const own = await bodies[name]();
        samples[name].push(typeof own === 'number' ? own : performance.now() - started);
      }
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(samples[name])]));
}
