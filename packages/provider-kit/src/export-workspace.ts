import { constants } from 'node:fs';
import { mkdir, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT_PATH, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';

/** The most entries one directory may hold for `exportWorkspace` (it lists each directory whole). */
export const EXPORT_DIRECTORY_MAX_ENTRIES = 1_000_000;

/** A file's mode when the provider keeps none. */
const DEFAULT_EXPORT_MODE = 0o644;

/**
 * Writes every directory and file of a workspace under the host directory `target`, which must be
 * empty (it is created when missing). Files are created exclusively (never over something already
 * there), so an export never changes anything it did not make, each with the mode the workspace
 * keeps for it (`stat`'s `mode`; 0644 for a provider that keeps none).
 */
export async function exportWorkspace(
  provider: FileSystemProviderV1,
  target: string,
): Promise<{ files: number; directories: number; bytes: number }> {
  await mkdir(target, { recursive: true });
  if ((await readdir(target)).length > 0) throw new Error(`${target} is not empty`);
  let files = 0;
  let directories = 0;
  let bytes = 0;
  const pending: WorkspacePath[] = [ROOT_PATH];
  while (pending.length > 0) {
    const directory = pending.pop()!;
    const listing = await provider.listDirectory(directory, { limit: EXPORT_DIRECTORY_MAX_ENTRIES });
    if (listing.truncated) throw new Error(`${directory} holds more than ${EXPORT_DIRECTORY_MAX_ENTRIES} entries`);
    for (const entry of listing.entries) {
      const host = join(target, ...entry.path.split('/'));
      if (entry.kind === 'directory') {
        await mkdir(host, { mode: 0o755 });
        directories++;
        pending.push(entry.path);
      } else if (entry.kind === 'file') {
        const { bytes: content, truncated } = await provider.readFile(entry.path, { maxBytes: Math.max(1, entry.sizeBytes ?? 0) });
        if (truncated) throw new Error(`${entry.path} grew while it was exported`);
        // Created with the stored mode (the umask can only narrow it), then given exactly that mode:
        // never wider than the workspace keeps, not even while the bytes are written.
        const mode = (await provider.stat(entry.path)).mode ?? DEFAULT_EXPORT_MODE;
        const handle = await open(host, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
        try {
          await handle.writeFile(content);
          await handle.chmod(mode);
          await handle.sync();
        } finally {
          await handle.close();
        }
        files++;
        bytes += content.length;
      }
    }
  }
  return { files, directories, bytes };
}
