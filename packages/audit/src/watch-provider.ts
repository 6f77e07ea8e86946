import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import type { AuditEffect } from './audit-record.js';
import { sha256Hex } from './sha256.js';

// A file bigger than this is not read just to hash what it held before a change: the record says
// "unknown" rather than let one overwrite cost a read of gigabytes.
const BEFORE_MAX_BYTES = 16 * 1024 * 1024;

const EFFECTS = Symbol('effects');

type Watched = FileSystemProviderV1 & { [EFFECTS]: AuditEffect[] };

const bases = new WeakMap<FileSystemProviderV1, FileSystemProviderV1>();

/**
 * The provider a call's tool sees: reads pass straight through, and each change that succeeds
 * appends its effect (SHA-256 before and after) to `effects`. What the file held before is observed
 * right before the change, after authority has allowed it, and never changes the call's outcome.
 * One object per call, over a base made once per provider (this runs for every call).
 */
export function watchProvider(provider: FileSystemProviderV1, effects: AuditEffect[]): FileSystemProviderV1 {
  let base = bases.get(provider);
  if (base === undefined) {
    base = watchingBase(provider);
    bases.set(provider, base);
  }
  const watched = Object.create(base) as Watched;
  watched[EFFECTS] = effects;
  return watched;
}

function watchingBase(provider: FileSystemProviderV1): FileSystemProviderV1 {
  const observe = async (path: WorkspacePath): Promise<string | null> => {
    try {
      const status = await provider.stat(path);
      if (status.kind === 'missing' || status.kind === 'directory') return null;
      if (status.kind !== 'file' || status.sizeBytes === null || status.sizeBytes > BEFORE_MAX_BYTES) return 'unknown';
      const read = await provider.readFile(path, { maxBytes: status.sizeBytes });
      return read.truncated ? 'unknown' : sha256Hex(read.bytes);
    } catch {
      return 'unknown';
    }
  };
  const base = boundBase(provider) as unknown as Record<string | symbol, unknown>;
  Object.assign(base, {
    async writeFile(this: Watched, path: WorkspacePath, bytes: Uint8Array, options: Parameters<FileSystemProviderV1['writeFile']>[2]) {
      // With expectedSha256 the write lands only over exactly those bytes; without overwrite only over nothing.
      const before = !options.overwrite ? null : options.expectedSha256 !== undefined ? options.expectedSha256 : await observe(path);
      const outcome = await provider.writeFile(path, bytes, options);
      this[EFFECTS].push({ path, before_sha256: outcome.created ? null : before, after_sha256: sha256Hex(bytes), size_bytes: bytes.byteLength });
      return outcome;
    },
    async makeDirectory(this: Watched, path: WorkspacePath, options: Parameters<FileSystemProviderV1['makeDirectory']>[1]) {
      const outcome = await provider.makeDirectory(path, options);
      if (outcome.created) this[EFFECTS].push({ path, before_sha256: null, after_sha256: null, size_bytes: null });
      return outcome;
    },
    async deleteFile(this: Watched, path: WorkspacePath, options: Parameters<FileSystemProviderV1['deleteFile']>[1]) {
      const before = await observe(path);
      const outcome = await provider.deleteFile(path, options);
      if (outcome.deleted) this[EFFECTS].push({ path, before_sha256: before, after_sha256: null, size_bytes: null });
      return outcome;
    },
    async deleteDirectory(this: Watched, path: WorkspacePath, options: Parameters<FileSystemProviderV1['deleteDirectory']>[1]) {
      const outcome = await provider.deleteDirectory(path, options);
      if (outcome.deleted) this[EFFECTS].push({ path, before_sha256: null, after_sha256: null, size_bytes: null });
      return outcome;
    },
  });
  const { appendFile, copyFile } = provider;
  if (appendFile !== undefined) {
    // Both hashes are observed (no digest resumes from another): a file past the cap is "unknown".
    base.appendFile = async function (
      this: Watched,
      path: WorkspacePath,
      bytes: Uint8Array,
      options: Parameters<NonNullable<FileSystemProviderV1['appendFile']>>[2],
    ) {
      const before = await observe(path);
      const outcome = await appendFile.call(provider, path, bytes, options);
      const after = await observe(path);
      this[EFFECTS].push({ path, before_sha256: outcome.created ? null : before, after_sha256: after, size_bytes: outcome.sizeBytes });
      return outcome;
    };
  }
  if (copyFile !== undefined) {
    base.copyFile = async function (
      this: Watched,
      from: WorkspacePath,
      to: WorkspacePath,
      options: Parameters<NonNullable<FileSystemProviderV1['copyFile']>>[2],
    ) {
      const copied = await observe(from);
      const replaced = options.overwrite ? await observe(to) : null;
      const outcome = await copyFile.call(provider, from, to, options);
      this[EFFECTS].push({ path: to, before_sha256: outcome.replaced ? replaced : null, after_sha256: copied, size_bytes: outcome.bytesCopied });
      return outcome;
    };
  }
  const rename = provider.rename;
  if (rename !== undefined) {
    base.rename = async function (
      this: Watched,
      from: WorkspacePath,
      to: WorkspacePath,
      options: Parameters<NonNullable<FileSystemProviderV1['rename']>>[2],
    ) {
      const moved = await observe(from);
      const replaced = options.overwrite ? await observe(to) : null;
      const status = moved === null ? undefined : await provider.stat(from).catch(() => undefined);
      const outcome = await rename.call(provider, from, to, options);
      this[EFFECTS].push({ path: from, before_sha256: moved, after_sha256: null, size_bytes: null });
      this[EFFECTS].push({ path: to, before_sha256: outcome.replaced ? replaced : null, after_sha256: moved, size_bytes: status?.sizeBytes ?? null });
      return outcome;
    };
  }
  return base as unknown as FileSystemProviderV1;
}

// A provider may be a class instance with private fields: its methods must keep it as `this`.
function boundBase(provider: FileSystemProviderV1): FileSystemProviderV1 {
  const base: Record<string | symbol, unknown> = Object.create(provider);
  for (let level: object | null = provider; level !== null && level !== Object.prototype; level = Object.getPrototypeOf(level)) {
    for (const key of Reflect.ownKeys(level)) {
      if (key === 'constructor' || Object.hasOwn(base, key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(level, key);
      if (typeof descriptor?.value === 'function') base[key] = (descriptor.value as (...args: unknown[]) => unknown).bind(provider);
    }
  }
  return base as unknown as FileSystemProviderV1;
}
