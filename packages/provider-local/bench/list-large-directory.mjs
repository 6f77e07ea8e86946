// read_directory with limit 1000 on a 200,000-entry directory vs fs.promises.readdir of its names,
// and the memory of both for 20,000 and 200,000 entries (fresh process per measurement).
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalProvider } from '@libos/provider-local';
import { compare, loadTools, report, scratch } from './bench-util.mjs';

function fill(directory, count) {
  mkdirSync(directory);
  for (let index = 0; index < count; index++) closeSync(openSync(join(directory, `entry-${index.toString().padStart(7, '0')}`), 'w'));
}

export async function benchListLargeDirectory() {
  const { base, done } = scratch('list');
  try {
    const small = join(base, 'n20k');
    const large = join(base, 'n200k');
    fill(small, 20_000);
    fill(large, 200_000);
    const provider = createLocalProvider({ root: large });
    const timing = await compare({
      ours: () => provider.listDirectory('.', { limit: 1000 }),
      baseline: () => readdir(large),
      rounds: 7,
    });
    report('list 200,000 entries limit 1000, provider.listDirectory vs fs.promises.readdir', timing, 1.5);
    const tools = await loadTools();
    if (tools !== undefined) {
      const runtime = await tools.createRuntime({ provider });
      const process = runtime.spawn();
      const viaTool = await compare({
        ours: () => process.call('read_directory', { path: '.', limit: 1000 }),
        baseline: () => readdir(large),
        rounds: 7,
      });
      report('list 200,000 entries limit 1000, read_directory (runtime) vs fs.promises.readdir', viaTool, 1.5);
      await runtime.close();
    } else {
      await provider.close();
    }
    const probe = fileURLToPath(new URL('./list-memory-probe.mjs', import.meta.url));
    for (const variant of ['provider', 'readdir']) {
      const rows = [small, large].map((directory) =>
        JSON.parse(execFileSync(process.execPath, ['--expose-gc', probe, variant, directory], { encoding: 'utf8' })),
      );
      const [at20k, at200k] = rows;
      console.log(
        `  memory ${variant.padEnd(8)}: 20k entries retained ${at20k.retainedMiB.toFixed(2)} MiB, peak RSS +${at20k.peakRssGrowthMiB.toFixed(1)} MiB;` +
          ` 200k entries retained ${at200k.retainedMiB.toFixed(2)} MiB, peak RSS +${at200k.peakRssGrowthMiB.toFixed(1)} MiB`,
      );
    }
  } finally {
    done();
  }
}
