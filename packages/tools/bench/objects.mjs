// Object Memory through the runtime: importing a 1 MiB file against read_text_file of it (the import
// adds the payload gate and the Object), then checkpoint and restore of 10,000 small Objects.
// Prints times and ratios; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeRuns(runs, run) {
  const times = [];
  for (let round = 0; round < runs; round++) {
    globalThis.gc?.();
    const start = performance.now();
    await run(round);
    times.push(performance.now() - start);
  }
  return median(times);
}

async function expectOk(outcome) {
  const result = await outcome;
  if (!result.ok) throw new Error(`call failed: ${JSON.stringify(result.error)}`);
  return result.result;
}

const directory = mkdtempSync(join(tmpdir(), 'libos-bench-objects-'));
try {
  const runtime = await createRuntime({ provider: createMemfsProvider() });
  const process = runtime.spawn();
  const MIB = 1024 * 1024;
  const line = 'Grüße, this is one line of the benchmark file ✓\n';
  const content = line.repeat(Math.ceil(MIB / Buffer.byteLength(line))).slice(0, MIB / 2);
  const padded = content + 'x'.repeat(MIB - Buffer.byteLength(content));
  await expectOk(process.call('write_text_file', { path: 'big.txt', content: padded }));

  let counter = 0;
  const read = () => expectOk(process.call('read_text_file', { path: 'big.txt', max_bytes: MIB }));
  const importOnce = () => expectOk(process.call('create_object_from_file', { name: `big ${counter++}`, path: 'big.txt' }));
  await timeRuns(3, read);
  await timeRuns(3, importOnce);
  const readMs = await timeRuns(15, read);
  const importMs = await timeRuns(15, importOnce);
  console.log(
    `create_object_from_file 1 MiB: read_text_file ${readMs.toFixed(2)} ms, import ${importMs.toFixed(2)} ms, ratio ${(importMs / readMs).toFixed(2)}x (target <= 1.5x)`,
  );
  await runtime.close();

  const small = await createRuntime({ provider: createMemfsProvider(), config: { namespaces: [{ name: 'bench', rights: ['read', 'write'] }] } });
  const worker = small.spawn();
  const COUNT = 10_000;
  for (let index = 0; index < 100; index++) {
    await expectOk(worker.call('write_text_file', { path: `notes/note-${index}.txt`, content: `note ${index}: a short observation\n` }));
  }
  for (let index = 0; index < COUNT; index++) {
    await expectOk(worker.call('create_object_from_file', { name: `object ${index}`, path: `notes/note-${index % 100}.txt`, namespace: 'bench' }));
  }
  const file = join(directory, 'memory.sqlite');
  const checkpointMs = await timeRuns(5, () => small.checkpoint(file, { namespaces: ['bench'] }));
  const restoreMs = await timeRuns(5, async () => {
    const restored = await createRuntime({ provider: createMemfsProvider(), restore: file });
    if ((await restored.objects.list('bench')).length !== COUNT) throw new Error('restore lost Objects');
  });
  console.log(`runtime.checkpoint of ${COUNT} Objects: ${checkpointMs.toFixed(1)} ms (target < 1000 ms)`);
  console.log(`createRuntime({ restore }) of ${COUNT} Objects: ${restoreMs.toFixed(1)} ms (target < 1000 ms)`);
  await small.close();
} finally {
  rmSync(directory, { recursive: true, force: true });
}
