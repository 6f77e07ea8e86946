import { readSync, writeSync } from 'node:fs';
import type { CopyFileOptions, WorkspacePath } from '@libos/core';
import { mapNodeError } from './map-node-error.js';
import type { OperationContext } from './operation-context.js';
import { withRegularFile } from './open-regular-file.js';
import { StagedFile } from './staged-file.js';
import { KEPT_MODE_BITS, writeStaged } from './write-file.js';

// Bytes moved per read and write: memory stays this, whatever the size of the file copied.
const CHUNK_BYTES = 1 << 20;

/**
 * Copies one regular single-link file: the source is opened as a read opens it and streamed into a
 * staged temporary with its mode bits, which then gets the target's name exactly as a write's
 * temporary does (link() for a new name, so `already_exists` is decided atomically; rename under
 * the name lock over an existing file), so a reader of `to` sees the whole copy or nothing new.
 */
export function copyFile(
  context: OperationContext,
  from: WorkspacePath,
  to: WorkspacePath,
  options: CopyFileOptions,
): Promise<{ readonly bytesCopied: number; readonly replaced: boolean }> {
  return withRegularFile(context, from, async ({ fd: source, status }) => {
    let copied = 0;
    const stage = () =>
      StagedFile.beginWith(context, status.mode & KEPT_MODE_BITS, to, (target) => {
        copied = streamInto(source, target, from);
        return copied;
      });
    const { created } = await writeStaged(context, to, { overwrite: options.overwrite, signal: context.signal }, stage);
    return { bytesCopied: copied, replaced: !created };
  });
}

function streamInto(source: number, target: number, from: WorkspacePath): number {
  const buffer = Buffer.allocUnsafeSlow(CHUNK_BYTES);
  let position = 0;
  for (;;) {
    let count: number;
    try {
      count = readSync(source, buffer, 0, buffer.length, position);
    } catch (error) {
      throw mapNodeError(error, from);
    }
    if (count === 0) return position;
    let written = 0;
    while (written < count) written += writeSync(target, buffer, written, count - written, position + written);
    position += count;
  }
}
