import { LibosError, type WorkspacePath } from '@libos/core';
import { createSHA256, type IHasher } from 'hash-wasm';
import type { EntryRow, RowHead } from '../state/entry-rows.js';
import { readWhole, sha256Hex } from './lower-files.js';
import type { OverlayContext } from '../overlay-context.js';

/** How much of a file one step of a streamed hash reads: the event loop runs between steps. */
const CHUNK_BYTES = 1 << 20;

/** A SHA-256 that can be carried on later: its state is saved with the row (`hash_state`). */
export interface CarriedHash {
  readonly state: Buffer;
  readonly sha256: string;
}

/** A fresh hasher, or one resumed from a saved state. */
export async function hasherFrom(state: Buffer | null): Promise<IHasher> {
  const hasher = await createSHA256();
  hasher.init();
  if (state !== null) hasher.load(state);
  return hasher;
}

/** Saves the hasher's state and gives its digest; the hasher is spent. */
export function finish(hasher: IHasher): CarriedHash {
  const state = Buffer.from(hasher.save());
  return { state, sha256: hasher.digest('hex') };
}

/** The error the agent gets when the lower file its appended bytes follow is no longer their base. */
export function baseMoved(path: WorkspacePath): LibosError {
  return new LibosError(
    'changed_during_operation',
    `'${path}' changed on disk under the bytes the agent appended to it; a person can discard the change, or apply it (a conflict).`,
    { details: { path, reason: 'base_changed_on_disk' } },
  );
}

const signalOption = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

// A base that is gone or is no longer a plain file is a base that moved, for the agent's own file.
async function fromBase<T>(path: WorkspacePath, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (LibosError.is(error, 'not_found', 'not_a_file', 'not_a_directory', 'symlink_refused', 'hard_link_refused')) throw baseMoved(path);
    throw error;
  }
}

/**
 * Streams a lower file to `consume` in steps of CHUNK_BYTES (the lower's own range reads, so a
 * hard link or a link is refused as its read would refuse it), never holding more than one step.
 * Returns its size; the file must keep the size it had at the first step, else `base_changed_on_disk`.
 */
export async function hashLowerFile(
  context: OverlayContext,
  path: WorkspacePath,
  consume: (bytes: Uint8Array) => void,
  signal?: AbortSignal,
): Promise<number> {
  const { readFileRange } = context.lower;
  if (readFileRange === undefined) {
    const bytes = await readWhole(context.lower, path, null, signal);
    consume(bytes);
    return bytes.length;
  }
  let offset = 0;
  let size: number | undefined;
  for (;;) {
    const read = await readFileRange.call(context.lower, path, { offset, maxBytes: CHUNK_BYTES, ...signalOption(signal) });
    if (size !== undefined && read.sizeBytes !== size) throw baseMoved(path);
    size = read.sizeBytes;
    consume(read.bytes);
    offset += read.bytes.length;
    if (offset >= size || read.bytes.length === 0) return offset;
  }
}

/**
 * The hash state over every byte of a file row, computed once (in steps) when the row has none: its
 * lower part must still be its base, its stored part is read from the state a step at a time.
 */
export async function hashStateOf(context: OverlayContext, row: RowHead, signal?: AbortSignal): Promise<CarriedHash> {
  if (row.hash_state !== undefined && row.hash_state !== null) return { state: row.hash_state, sha256: row.sha256 ?? '' };
  const hasher = await hasherFrom(null);
  const lowerBytes = row.lower_bytes ?? 0;
  if (lowerBytes > 0) {
    const path = row.path;
    const base = await hasherFrom(null);
    const both = (data: Uint8Array): void => {
      hasher.update(data);
      base.update(data);
    };
    const size = await fromBase(path, () => hashLowerFile(context, path, both, signal));
    if (size !== lowerBytes || base.digest('hex') !== row.base_sha256) throw baseMoved(path);
  }
  const size = row.size ?? 0;
  for (let offset = lowerBytes; offset < size; offset += CHUNK_BYTES) {
    hasher.update(context.rows.stored(row.path, offset, Math.min(size, offset + CHUNK_BYTES)));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return finish(hasher);
}

/**
 * Every byte of a file row: the lower's base file (read whole and checked against the base's hash;
 * `base_changed_on_disk` when it moved) followed by what the overlay holds.
 */
export async function wholeBytes(context: OverlayContext, row: EntryRow, signal?: AbortSignal): Promise<Uint8Array> {
  const stored = row.content ?? Buffer.alloc(0);
  const lowerBytes = row.lower_bytes ?? 0;
  if (lowerBytes === 0) return new Uint8Array(stored);
  const path = row.path;
  const base = await fromBase(path, () => readWhole(context.lower, path, lowerBytes, signal));
  if (base.length !== lowerBytes || sha256Hex(base) !== row.base_sha256) throw baseMoved(path);
  const whole = new Uint8Array(base.length + stored.length);
  whole.set(base, 0);
  whole.set(stored, base.length);
  return whole;
}

/**
 * Bytes [start, end) of a file row, reading only those: a part in the lower comes from the lower's
 * own reads (its size must still be the base's; a whole base read is checked by hash too), the rest
 * is cut out of the segments by SQLite.
 */
export async function rowRange(context: OverlayContext, row: RowHead, start: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
  const lowerBytes = row.lower_bytes ?? 0;
  const parts: Uint8Array[] = [];
  if (start < lowerBytes && end > start) {
    const path = row.path;
    const upTo = Math.min(end, lowerBytes);
    const { readFileRange } = context.lower;
    let bytes: Uint8Array;
    if (start === 0 && upTo === lowerBytes) {
      const read = await fromBase(path, () => context.lower.readFile(path, { maxBytes: lowerBytes, ...signalOption(signal) }));
      if (read.truncated || read.bytes.length !== lowerBytes || sha256Hex(read.bytes) !== row.base_sha256) throw baseMoved(path);
      bytes = read.bytes;
    } else if (readFileRange !== undefined) {
      const read = await fromBase(path, () =>
        readFileRange.call(context.lower, path, { offset: start, maxBytes: upTo - start, ...signalOption(signal) }),
      );
      if (read.sizeBytes !== lowerBytes || read.bytes.length !== upTo - start) throw baseMoved(path);
      bytes = read.bytes;
    } else {
      const read = await fromBase(path, () => context.lower.readFile(path, { maxBytes: lowerBytes, ...signalOption(signal) }));
      if (read.truncated || read.bytes.length !== lowerBytes) throw baseMoved(path);
      bytes = read.bytes.subarray(start, upTo);
    }
    parts.push(bytes);
  }
  if (end > Math.max(start, lowerBytes)) parts.push(context.rows.stored(row.path, Math.max(start, lowerBytes), end));
  if (parts.length === 1) return new Uint8Array(parts[0] as Uint8Array);
  return new Uint8Array(Buffer.concat(parts));
}
