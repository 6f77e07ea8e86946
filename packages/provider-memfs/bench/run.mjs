// Measures the provider against plain memfs calls on the same volume; prints ratios, asserts nothing.
import { performance } from 'node:perf_hooks';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';

const path = (input) => resolveWorkspacePath(ROOT_PATH, input);

function time(runs, body) {
  body();
  const start = performance.now();
  for (let run = 0; run < runs; run++) body();
  return (performance.now() - start) / runs;
}

async function timeAsync(runs, body) {
  await body();
  const start = performance.now();
  for (let run = 0; run < runs; run++) await body();
  return (performance.now() - start) / runs;
}

function report(name, ours, baseline, target) {
  const ratio = ours / baseline;
  console.log(`${name}: ${ours.toFixed(3)} ms vs ${baseline.toFixed(3)} ms baseline, ratio ${ratio.toFixed(2)}x (target ${target})`);
}

const { provider, volume } = createMemfsTestbed();

const entries = 100_000;
volume.mkdirSync('/workspace/big');
for (let index = 0; index < entries; index++) volume.writeFileSync(`/workspace/big/f${(index * 7919) % entries}`, '');
report(
  `listDirectory limit 1024 of ${entries} names vs readdirSync`,
  await timeAsync(5, () => provider.listDirectory(path('big'), { limit: 1024 })),
  time(5, () => volume.readdirSync('/workspace/big')),
  '<= 2x',
);

volume.writeFileSync('/workspace/large.bin', Buffer.alloc(64 << 20));
report(
  'readFile 64 KiB prefix of a 64 MiB file vs readFileSync of it',
  await timeAsync(50, () => provider.readFile(path('large.bin'), { maxBytes: 65536 })),
  time(5, () => volume.readFileSync('/workspace/large.bin')),
  '<< 1x',
);

volume.mkdirSync('/workspace/a/b/c/d/e/f/g/h', { recursive: true });
const kilobyte = new Uint8Array(1024).fill(65);
report(
  'writeFile atomic replace of 1 KiB at depth 9 vs writeFileSync in place',
  await timeAsync(2000, () => provider.writeFile(path('a/b/c/d/e/f/g/h/x'), kilobyte, { overwrite: true })),
  time(2000, () => volume.writeFileSync('/workspace/a/b/c/d/e/f/g/h/y', kilobyte)),
  'none, for scale: a walk, a temp file, unlink and rename against one in-place, non-atomic write',
);
report(
  'readFile of 1 KiB at depth 9 vs readFileSync',
  await timeAsync(2000, () => provider.readFile(path('a/b/c/d/e/f/g/h/x'), { maxBytes: 65536 })),
  time(2000, () => volume.readFileSync('/workspace/a/b/c/d/e/f/g/h/y')),
  'none, for scale: one lstat per component, then open, fstat, read, close',
);
