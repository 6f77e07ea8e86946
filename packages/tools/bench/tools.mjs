// The cost of the call pipeline (argument gate, strict parse, path rules, authority, result bound)
// over calling the provider directly for the same work, on memfs. Prints ratios; asserts nothing.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeBatches(batch, batches, run) {
  const times = [];
  for (let round = 0; round < batches; round++) {
    globalThis.gc?.();
    const start = performance.now();
    for (let index = 0; index < batch; index++) await run(index);
    times.push((performance.now() - start) / batch);
  }
  return median(times);
}

async function compare(label, target, batch, batches, baseline, candidate) {
  await timeBatches(batch, 3, baseline);
  await timeBatches(batch, 3, candidate);
  const base = await timeBatches(batch, batches, baseline);
  const through = await timeBatches(batch, batches, candidate);
  const ratio = through / base;
  console.log(
    `${label}: provider ${(base * 1000).toFixed(1)} µs, process.call ${(through * 1000).toFixed(1)} µs, ratio ${ratio.toFixed(2)}x (target <= ${target}x)`,
  );
}

const provider = createMemfsProvider();
const runtime = await createRuntime({ provider });
const process = runtime.spawn();
const path = (text) => resolveWorkspacePath(ROOT_PATH, text);

const small = 'line of text\n'.repeat(80);
await process.call('write_text_file', { path: 'docs/small.txt', content: small });
await compare(
  'read_text_file 1 KiB',
  2,
  200,
  30,
  async () => {
    const read = await provider.readFile(path('docs/small.txt'), { maxBytes: 65_536 });
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(read.bytes);
    createHash('sha256').update(read.bytes).digest('hex');
  },
  () => process.call('read_text_file', { path: 'docs/small.txt' }),
);

const big = 'é'.repeat(2 * 1024 * 1024);
// The gate serializes the arguments once to measure them (the contract bounds their JSON), which costs
// about as much as encoding the content, so this call cannot get near the bare write.
await compare(
  'write_text_file 4 MiB',
  3,
  2,
  15,
  async () => {
    await provider.writeFile(path('big.txt'), new TextEncoder().encode(big), { overwrite: true });
  },
  () => process.call('write_text_file', { path: 'big.txt', content: big }),
);

for (let index = 0; index < 10_000; index++) await provider.writeFile(path(`many/entry-${index}`), new Uint8Array(1), { overwrite: true });
await compare(
  'read_directory 10,000 entries, limit 100',
  1.5,
  5,
  15,
  async () => {
    await provider.listDirectory(path('many'), { limit: 100 });
  },
  () => process.call('read_directory', { path: 'many', limit: 100 }),
);

await runtime.close();
