import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DirectoryEntry, WorkspacePath } from '@libos/core';
import { TreeState, type IndexedFile } from './tree-state.js';

// Version 2: filters of folded trigrams (a version 1 snapshot's exact ones would miss folded needles).
const MAGIC = Buffer.from('LIBOSIX2');
const HEADER = MAGIC.length + 32 + 4;

type SavedFile = [path: string, stamp: string, changedAtMs: number, indexedAtMs: number, filterLength: number, truncated: boolean];

interface SavedMeta {
  readonly workspace: string;
  readonly directories: [path: string, entries: DirectoryEntry[], truncated: boolean][];
  readonly files: SavedFile[];
}

/** The snapshot's name in the index directory. */
export const SNAPSHOT_NAME = 'index.bin';

/**
 * Writes the index to `directory`: magic, SHA-256 of the rest, the length of a JSON part (the
 * listings and each file's stamp) and the filters end to end. Written beside, flushed, then renamed
 * over the old one, so a kill at any point leaves the old snapshot or the new one, never a mix;
 * and the hash catches a file damaged any other way. Returns its size in bytes.
 */
export function saveSnapshot(directory: string, workspace: string, state: TreeState): number {
  const files: SavedFile[] = [];
  const filters: Uint8Array[] = [];
  for (const [path, file] of state.files) {
    files.push([path, file.stamp, file.changedAtMs, file.indexedAtMs, file.filter?.length ?? -1, file.truncated]);
    if (file.filter !== null) filters.push(file.filter);
  }
  const meta: SavedMeta = {
    workspace,
    directories: [...state.directories].map(([path, listing]) => [path, [...listing.values()], state.truncated.has(path)]),
    files,
  };
  const json = Buffer.from(JSON.stringify(meta), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const hash = createHash('sha256').update(length).update(json);
  for (const filter of filters) hash.update(filter);
  const parts = [MAGIC, hash.digest(), length, json, ...filters];
  const temporary = join(directory, `${SNAPSHOT_NAME}.${process.pid}.tmp`);
  const fd = openSync(temporary, 'w', 0o600);
  let size = 0;
  try {
    for (const part of parts) size += writeSync(fd, part);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, join(directory, SNAPSHOT_NAME));
  return size;
}

/**
 * The index saved in `directory` for `workspace`, or null when there is none, it is damaged (its
 * hash or its shape), or it was saved for another workspace: the caller then builds it anew.
 */
export function loadSnapshot(directory: string, workspace: string): { state: TreeState; bytes: number } | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(directory, SNAPSHOT_NAME));
  } catch {
    return null;
  }
  if (bytes.length < HEADER || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const digest = createHash('sha256')
    .update(bytes.subarray(MAGIC.length + 32))
    .digest();
  if (!digest.equals(bytes.subarray(MAGIC.length, MAGIC.length + 32))) return null;
  const jsonLength = bytes.readUInt32LE(MAGIC.length + 32);
  try {
    const meta = JSON.parse(bytes.subarray(HEADER, HEADER + jsonLength).toString('utf8')) as SavedMeta;
    if (meta.workspace !== workspace) return null;
    const state = new TreeState();
    for (const [path, entries, truncated] of meta.directories) {
      state.directories.set(path as WorkspacePath, new Map(entries.map((entry) => [entry.name, entry])));
      if (truncated) state.truncated.add(path as WorkspacePath);
    }
    let offset = HEADER + jsonLength;
    for (const [path, stamp, changedAtMs, indexedAtMs, filterLength, truncated] of meta.files) {
      let filter: Uint8Array | null = null;
      if (filterLength >= 0) {
        // A filter's length is a power of two of at least 8 bytes: anything else is not one this wrote.
        if (filterLength < 8 || (filterLength & (filterLength - 1)) !== 0 || offset + filterLength > bytes.length) return null;
        filter = new Uint8Array(bytes.subarray(offset, offset + filterLength));
        offset += filterLength;
      }
      const file: IndexedFile = { stamp, changedAtMs, indexedAtMs, filter, truncated };
      state.files.set(path as WorkspacePath, file);
    }
    return offset === bytes.length ? { state, bytes: bytes.length } : null;
  } catch {
    return null;
  }
}
