import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FILE_MODE_BITS, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** One entry of a seed directory, parents before children. */
export interface SeedEntry {
  readonly path: WorkspacePath;
  readonly host: string;
  readonly directory: boolean;
  /** A file's permission bits on the host. */
  readonly mode: number;
}

/**
 * Lists the host directory `seed`: directories and regular files only, read with lstat (links are
 * never followed), parents before their children. A symbolic link, a special file or a name that
 * is not valid UTF-8 refuses the whole seed, naming it, since the workspace could not hold it.
 */
export async function scanSeed(seed: string): Promise<SeedEntry[]> {
  const entries: SeedEntry[] = [];
  const pending: Array<{ host: string; path: string }> = [{ host: seed, path: '' }];
  while (pending.length > 0) {
    const { host, path } = pending.pop()!;
    for (const raw of await readdir(host, { encoding: 'buffer' })) {
      let name: string;
      try {
        name = strictUtf8.decode(raw);
      } catch {
        throw new Error(`the name ${JSON.stringify(raw.toString('latin1'))} in ${path || '.'} is not valid UTF-8`);
      }
      const child = path === '' ? name : `${path}/${name}`;
      const childHost = join(host, name);
      const status = await lstat(childHost);
      if (status.isDirectory()) {
        entries.push({ path: child as WorkspacePath, host: childHost, directory: true, mode: status.mode & FILE_MODE_BITS });
        pending.push({ host: childHost, path: child });
      } else if (status.isFile()) {
        entries.push({ path: child as WorkspacePath, host: childHost, directory: false, mode: status.mode & FILE_MODE_BITS });
      } else {
        throw new Error(`${child} is ${status.isSymbolicLink() ? 'a symbolic link' : 'a special file'}, which a seed cannot copy`);
      }
    }
  }
  return entries;
}

/** A seed file's bytes, read through one handle. */
export async function readSeedFile(entry: SeedEntry): Promise<Uint8Array> {
  const handle = await open(entry.host, 'r');
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Copies the host directory `seed` into an empty workspace through any provider's own calls, each
 * file with its host mode. The whole tree is checked first (see `scanSeed`). Each call is its own
 * step, so a failure midway leaves part of the seed: a provider that can seed in one step (a
 * PostgreSQL workspace: `createPostgresProvider({ seed })`, one transaction) is better seeded so.
 */
export async function seedWorkspace(provider: FileSystemProviderV1, seed: string): Promise<{ files: number; directories: number }> {
  let files = 0;
  let directories = 0;
  for (const entry of await scanSeed(seed)) {
    if (entry.directory) {
      await provider.makeDirectory(entry.path, { parents: true, existOk: true });
      directories++;
      continue;
    }
    await provider.writeFile(entry.path, await readSeedFile(entry), { overwrite: false, mode: entry.mode });
    files++;
  }
  return { files, directories };
}
