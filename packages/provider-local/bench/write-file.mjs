// The write path: provider.writeFile (staged in .libos-staging, verified, name-locked, mount-checked)
// against the previous provider's write path (previous-write-path.mjs), for a 100-byte and a 1 MiB
// replacement two directories deep. Target: at most 1.10x.
import { closeSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalProvider } from '@libos/provider-local';
import { compare, report, scratch } from './bench-util.mjs';
import { openBaselineRoot, previousWriteFile } from './previous-write-path.mjs';

/**
 * Times a replacement of `size` bytes two directories deep under `base`: provider.writeFile in one
 * workspace against the previous write path in another beside it, so neither pays for the other's files.
 */
async function compareWrites(base, size, rounds, warmup) {
  for (const side of ['new', 'old']) {
    mkdirSync(join(base, side, 'a/b'), { recursive: true });
    writeFileSync(join(base, side, 'a/b/f.txt'), 'old');
  }
  const provider = createLocalProvider({ root: join(base, 'new') });
  const rootFd = openBaselineRoot(join(base, 'old'));
  const bytes = new Uint8Array(size).fill(0x61);
  try {
    return await compare({
      ours: () => provider.writeFile('a/b/f.txt', bytes, { overwrite: true }),
      baseline: () => previousWriteFile(rootFd, 'a/b/f.txt', bytes),
      rounds,
      callsPerRound: 1,
      warmup,
    });
  } finally {
    await provider.close();
    closeSync(rootFd);
  }
}

export async function benchWriteFile() {
  // One call per round, alternating: an fsync's time swings with the disk's other traffic, and
  // alternating call by call lets both sides meet the same swings; the medians then compare.
  for (const [label, size, rounds] of [
    ['100-byte', 100, 301],
    ['1 MiB', 1 << 20, 101],
  ]) {
    const { base, done } = scratch('write');
    try {
      const timing = await compareWrites(base, size, rounds, 5);
      report(`write ${label} 2 dirs deep, provider.writeFile vs the previous write path`, timing, 1.1, 'µs');
    } finally {
      done();
    }
  }
}

/**
 * The same 100-byte replacement on tmpfs (/dev/shm), where an fsync costs nothing: what is left is
 * the new path's own work (mount id, staging checks, the name lock), shown in µs, not as a target.
 */
export async function benchWriteFileOnTmpfs() {
  const { existsSync, mkdtempSync, rmSync } = await import('node:fs');
  if (!existsSync('/dev/shm')) return console.log('write 100-byte on tmpfs: skipped, no /dev/shm');
  const base = mkdtempSync('/dev/shm/libos-bench-write-');
  try {
    const timing = await compareWrites(base, 100, 301, 20);
    console.log(
      `write 100-byte on tmpfs (no fsync cost): ${(timing.ours * 1000).toFixed(1)} µs vs ${(timing.baseline * 1000).toFixed(1)} µs,` +
        ` +${((timing.ours - timing.baseline) * 1000).toFixed(1)} µs per write (informational; a durable write pays an fsync)`,
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
