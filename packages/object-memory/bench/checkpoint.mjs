// Checkpoint and restore of 10,000 small Objects (targets: under 1 s each), against a baseline of
// writing and parsing the same Objects as one plain JSON file (no transaction, no validation).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createObjectMemory } from '@libos/object-memory';

const COUNT = 10_000;
const directory = mkdtempSync(join(tmpdir(), 'libos-bench-checkpoint-'));

async function time(action) {
  const start = performance.now();
  const value = await action();
  return { value, ms: performance.now() - start };
}

async function best(runs, action) {
  let fastest = Infinity;
  let value;
  for (let run = 0; run < runs; run++) {
    const result = await time(action);
    value = result.value;
    fastest = Math.min(fastest, result.ms);
  }
  return { value, ms: fastest };
}

try {
  const memory = await createObjectMemory({ namespaces: ['bench'] });
  for (let index = 0; index < COUNT; index++) {
    await memory.create({
      namespace: 'bench',
      name: `object ${index}`,
      type: 'observation',
      payload: { content: `observation number ${index}`, index, tags: ['a', 'b'] },
      createdBy: 'pid_0123456789abcdef',
    });
  }
  const file = join(directory, 'memory.sqlite');
  const json = join(directory, 'memory.json');

  const baselineWrite = await best(3, async () => writeFileSync(json, JSON.stringify(await memory.list('bench'))));
  const checkpoint = await best(3, () => memory.checkpoint(file, { namespaces: ['bench'] }));
  const baselineRead = await best(3, () => JSON.parse(readFileSync(json, 'utf8')).length);
  const restore = await best(3, async () => (await (await createObjectMemory({ restore: file })).list('bench')).length);
  if (restore.value !== COUNT) throw new Error(`restored ${restore.value} Objects, expected ${COUNT}`);

  console.log(
    `object-memory: checkpoint of ${COUNT} Objects ${checkpoint.ms.toFixed(1)} ms (target < 1000 ms); ratio ${(checkpoint.ms / baselineWrite.ms).toFixed(2)}x vs plain JSON write ${baselineWrite.ms.toFixed(1)} ms`,
  );
  console.log(
    `object-memory: restore of ${COUNT} Objects ${restore.ms.toFixed(1)} ms (target < 1000 ms); ratio ${(restore.ms / baselineRead.ms).toFixed(2)}x vs plain JSON parse ${baselineRead.ms.toFixed(1)} ms`,
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
