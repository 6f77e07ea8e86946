import { fsync, ftruncateSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import type { KeyObject } from 'node:crypto';
import type { AuditCheckpoint } from './audit-record.js';
import { canonicalJson } from './canonical-json.js';
import { signCheckpoint } from './checkpoint-signature.js';

const fsyncAsync = promisify(fsync);

/**
 * Appends the checkpoint naming `named` (signed with `signingKey` when there is one) to the
 * checkpoints file of `size` bytes and fsyncs it; resolves with the file's new size. A torn
 * checkpoint would end the file: on a failure it is cut back to `size` and the error thrown on.
 */
export async function writeCheckpoint(
  fd: number,
  size: number,
  named: { readonly seq: number; readonly record_sha256: string },
  signingKey: KeyObject | undefined,
): Promise<number> {
  const checkpoint: AuditCheckpoint = {
    ...named,
    time: new Date().toISOString(),
    signature: signingKey === undefined ? null : signCheckpoint(signingKey, named.seq, named.record_sha256),
  };
  const bytes = Buffer.from(`${canonicalJson(checkpoint)}\n`, 'utf8');
  try {
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    await fsyncAsync(fd);
  } catch (error) {
    try {
      ftruncateSync(fd, size);
    } catch {
      // The size is re-read by the writer; a torn line left here is what verify reports.
    }
    throw error;
  }
  return size + bytes.length;
}
