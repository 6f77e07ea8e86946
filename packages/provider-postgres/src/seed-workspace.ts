import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

interface SeedEntry {
  readonly path: WorkspacePath;
  readonly host: string;
  readonly directory: boolean;
}

/**
 * Copies the host directory `seed` into an empty workspace: directories and regular files only,
 * read with lstat (links are never followed). The whole tree is checked before anything is copied:
 * a symbolic link, a special file or a name that is not valid UTF-8 refuses the seed, naming it,
 * since the workspace could not hold it as it is on disk.
 */
export async function seedWorkspace(provider: FileSystemProviderV1, seed: string): Promise<{ files: number; directories: number }> {
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
        entries.push({ path: child as WorkspacePath, host: childHost, directory: true });
        pending.push({ host: childHost, path: child });
      } else if (status.isFile()) {
        entries.push({ path: child as WorkspacePath, host: childHost, directory: false });
      } else {
        throw new Error(`${child} is ${status.isSymbolicLink() ? 'a symbolic link' : 'a special file'}, which a PostgreSQL workspace cannot hold`);
      }
    }
  }
  let files = 0;
  let directories = 0;
  // Parents come before their children: `entries` is in the order the walk met them.
  for (const entry of entries) {
    if (entry.directory) {
      await provider.makeDirectory(entry.path, { parents: true, existOk: true });
      directories++;
      continue;
    }
    const handle = await open(entry.host, 'r');
    try {
      await provider.writeFile(entry.path, await handle.readFile(), { overwrite: false });
    } finally {
      await handle.close();
    }
    files++;
  }
  return { files, directories };
}
