import { closeSync, ftruncateSync, mkdtempSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFiles } from './build-files.mjs';

export const SMALL_BYTES = 100;
export const LIST_WITH_SIZES = 10_000;
export const LIST_LARGE = 100_000;
export const LINE_BYTES = 64;
export const HEAD_BYTES = 64 * 1024;
export const LARGE_FILE_BYTES = 200 * 1000 * 1000;
export const SPARSE_FILE_BYTES = 1024 ** 3;

/**
 * The workspace both servers serve, in a fresh temporary directory (on the disk `os.tmpdir()` is on,
 * so fsync costs what it costs a user there; LIBOS_BENCH_DIR picks another parent):
 * - small.txt, 100 bytes; writes go to write-ours.txt and write-theirs.txt;
 * - sizes/ with 10,000 files of 0 to 999 bytes, large/ with 100,000 empty files;
 * - lines.txt, 200 MB: 1 MiB of 64-byte lines, then a hole (sparse), so `head` stops in real text;
 * - sparse.bin, a 1 GiB hole.
 */
export async function makeFixtures() {
  const root = mkdtempSync(join(process.env.LIBOS_BENCH_DIR ?? tmpdir(), 'libos-bench-'));
  writeFileSync(join(root, 'small.txt'), 'x'.repeat(SMALL_BYTES - 1) + '\n');
  await buildFiles('sizes', join(root, 'sizes'), LIST_WITH_SIZES);
  await buildFiles('empty', join(root, 'large'), LIST_LARGE);
  const lines = openSync(join(root, 'lines.txt'), 'w');
  const line = 'z'.repeat(LINE_BYTES - 1) + '\n';
  writeSync(lines, line.repeat((1024 * 1024) / LINE_BYTES));
  ftruncateSync(lines, LARGE_FILE_BYTES);
  closeSync(lines);
  const sparse = openSync(join(root, 'sparse.bin'), 'w');
  ftruncateSync(sparse, SPARSE_FILE_BYTES);
  closeSync(sparse);
  return root;
}
