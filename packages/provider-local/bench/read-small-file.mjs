// read of a small file three directories deep: provider and read_text_file vs fs.promises.readFile.
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLocalProvider } from '@libos/provider-local';
import { compare, loadTools, report, scratch } from './bench-util.mjs';

export async function benchReadSmallFile() {
  const { base, done } = scratch('read');
  try {
    mkdirSync(join(base, 'a/b/c'), { recursive: true });
    const host = join(base, 'a/b/c/notes.txt');
    writeFileSync(host, 'a small file, three directories deep\n'.repeat(20));
    const provider = createLocalProvider({ root: base });
    const path = 'a/b/c/notes.txt';
    const baseline = () => readFile(host);
    const timing = await compare({
      ours: () => provider.readFile(path, { maxBytes: 65536 }),
      baseline,
      rounds: 9,
      callsPerRound: 2000,
      warmup: 1,
    });
    report('read 3 dirs deep, provider.readFile vs fs.promises.readFile', timing, 2, 'µs');
    const tools = await loadTools();
    if (tools !== undefined) {
      const runtime = await tools.createRuntime({ provider });
      const process = runtime.spawn();
      const viaTool = await compare({
        ours: () => process.call('read_text_file', { path }),
        baseline,
        rounds: 9,
        callsPerRound: 1000,
      });
      report('read 3 dirs deep, read_text_file (runtime) vs fs.promises.readFile', viaTool, 2, 'µs');
      await runtime.close();
    } else {
      await provider.close();
    }
  } finally {
    done();
  }
}
