import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { WorkspacePath } from '@libos/core';
import { REOPEN_FILE } from './host-flags.js';
import { refuseOtherMount } from './mount-id.js';
import type { OperationContext } from './operation-context.js';
import { requireSingleFile } from './probe-entry.js';

/** The SHA-256 of the whole file an O_PATH handle holds, read through a reopen of that very inode. */
export function hashHeld(context: OperationContext, handle: number, path: WorkspacePath): string {
  // Not even a hash of bytes from another mount (a file bind-mounted over the name) is computed.
  refuseOtherMount(context, handle, path);
  const fd = openSync(context.paths.of(handle), REOPEN_FILE);
  try {
    requireSingleFile(fstatSync(fd), path);
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafeSlow(1 << 16);
    let position = 0;
    for (;;) {
      const count = readSync(fd, chunk, 0, chunk.length, position);
      if (count === 0) return hash.digest('hex');
      hash.update(chunk.subarray(0, count));
      position += count;
    }
  } finally {
    closeSync(fd);
  }
}
