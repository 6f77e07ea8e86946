import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { wrapProvider, type ProviderMiddleware } from '@libos/provider-kit';
import type { AuditEffect } from './audit-record.js';
import { sha256Hex } from './sha256.js';

// A file bigger than this is not read just to hash what it held before a change: the record says
// "unknown" rather than let one overwrite cost a read of gigabytes.
const BEFORE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The provider a call's tool sees: reads pass straight through, and each change that succeeds
 * appends its effect (SHA-256 before and after) to `effects`. What the file held before is observed
 * right before the change, after authority has allowed it, and never changes the call's outcome.
 */
export function watchProvider(provider: FileSystemProviderV1, effects: AuditEffect[]): FileSystemProviderV1 {
  return wrapProvider(provider, watchEffects(provider, effects));
}

/** The middleware of `watchProvider`: `provider` is observed (stat and read) before a change. */
export function watchEffects(provider: FileSystemProviderV1, effects: AuditEffect[]): ProviderMiddleware {
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
  return {
    async writeFile(next, path, bytes, options) {
      // With expectedSha256 the write lands only over exactly those bytes; without overwrite only over nothing.
      const before = !options.overwrite ? null : options.expectedSha256 !== undefined ? options.expectedSha256 : await observe(path);
      const outcome = await next(path, bytes, options);
      effects.push({ path, before_sha256: outcome.created ? null : before, after_sha256: sha256Hex(bytes), size_bytes: bytes.byteLength });
      return outcome;
    },
    async makeDirectory(next, path, options) {
      const outcome = await next(path, options);
      if (outcome.created) effects.push({ path, before_sha256: null, after_sha256: null, size_bytes: null });
      return outcome;
    },
    async deleteFile(next, path, options) {
      const before = await observe(path);
      const outcome = await next(path, options);
      if (outcome.deleted) effects.push({ path, before_sha256: before, after_sha256: null, size_bytes: null });
      return outcome;
    },
    async deleteDirectory(next, path, options) {
      const outcome = await next(path, options);
      if (outcome.deleted) effects.push({ path, before_sha256: null, after_sha256: null, size_bytes: null });
      return outcome;
    },
    // Both hashes are observed (no digest resumes from another): a file past the cap is "unknown".
    async appendFile(next, path, bytes, options) {
      const before = await observe(path);
      const outcome = await next(path, bytes, options);
      const after = await observe(path);
      effects.push({ path, before_sha256: outcome.created ? null : before, after_sha256: after, size_bytes: outcome.sizeBytes });
      return outcome;
    },
    async copyFile(next, from, to, options) {
      const copied = await observe(from);
      const replaced = options.overwrite ? await observe(to) : null;
      const outcome = await next(from, to, options);
      effects.push({ path: to, before_sha256: outcome.replaced ? replaced : null, after_sha256: copied, size_bytes: outcome.bytesCopied });
      return outcome;
    },
    async rename(next, from, to, options) {
      const moved = await observe(from);
      const replaced = options.overwrite ? await observe(to) : null;
      const status = moved === null ? undefined : await provider.stat(from).catch(() => undefined);
      const outcome = await next(from, to, options);
      effects.push({ path: from, before_sha256: moved, after_sha256: null, size_bytes: null });
      effects.push({ path: to, before_sha256: outcome.replaced ? replaced : null, after_sha256: moved, size_bytes: status?.sizeBytes ?? null });
      return outcome;
    },
  };
}
