import { lstatSync, readdirSync } from 'node:fs';

/**
 * The syscall floor of a listing with sizes: plain Node reading the names of `directory` and
 * lstat-ing each one by a name relative to the working directory, which is the cheapest lookup
 * Node has (no `/proc/self/fd` walk, no absolute path). No server of that listing can do less.
 */
export function lstatFloor(directory) {
  const home = process.cwd();
  process.chdir(directory);
  try {
    let bytes = 0;
    for (const name of readdirSync('.')) bytes += lstatSync(name).size;
    return bytes;
  } finally {
    process.chdir(home);
  }
}
