import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const WORKER = fileURLToPath(new URL('./build-files-worker.mjs', import.meta.url));

/**
 * Creates `count` files of one layout under `directory` (see build-files-worker.mjs), in a child
 * process with a wide libuv pool: on a disk shared with other busy processes one creation waits
 * milliseconds, and sixteen in flight hide most of that wait. Untimed: fixtures only.
 */
export async function buildFiles(layout, directory, count) {
  await run(process.execPath, [WORKER, layout, directory, String(count)], { env: { ...process.env, UV_THREADPOOL_SIZE: '16' } });
}
