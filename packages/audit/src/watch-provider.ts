import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { wrapProvider, type ProviderMiddleware } from '@libos/provider-kit';
import type { AuditEffect } from './audit-record.js';
import { sha256Hex } from './sha256.js';

// A file bigger than this is not read just to hash what it held before a change: the record says
// "unknown" rather than let one overwrite cost a read of gigabytes.
const BEFORE_MAX_BYTES = 16 * 1024 * 1024;

// Where a call's view of a watched provider keeps that call's list of effects.
const EFFECTS = Symbol('libos.audit.effects');

interface CallView {
  readonly [EFFECTS]?: AuditEffect[];
}

/** `ProviderMiddleware` whose entries take the call's list of effects first. */
type EffectsMiddleware = {
  readonly [Name in keyof ProviderMiddleware]?: (
    effects: AuditEffect[],
    ...rest: Parameters<NonNullable<ProviderMiddleware[Name]>>
  ) => ReturnType<NonNullable<ProviderMiddleware[Name]>>;
};

const watching = new WeakMap<FileSystemProviderV1, FileSystemProviderV1>();

/**
 * The provider a call's tool sees: reads pass straight through, and each change that succeeds
 * appends its effect (SHA-256 before and after) to `effects`. What the file held before is observed
 * right before the change, after authority has allowed it, and never changes the call's outcome.
 * Every call gets its own view, one small object over a watching provider made once per provider:
 * a wrapper made per call cost a few dozen functions on every call, reads included. The changing
 * methods find the call's list on `this`, which a provider's methods keep (a provider may be a class
 * instance, so every caller, `wrapProvider` included, calls them as methods).
 */
export function watchProvider(provider: FileSystemProviderV1, effects: AuditEffect[]): FileSystemProviderV1 {
  let shared = watching.get(provider);
  if (shared === undefined) {
    shared = watchingProvider(provider);
    watching.set(provider, shared);
  }
  const view = Object.create(shared) as FileSystemProviderV1 & { [EFFECTS]: AuditEffect[] };
  view[EFFECTS] = effects;
  return view;
}

// `provider` with its methods bound (`wrapProvider`, so none is dropped), the changing ones watched.
function watchingProvider(provider: FileSystemProviderV1): FileSystemProviderV1 {
  const shared = wrapProvider(provider, {}) as unknown as Record<string, unknown>;
  const middleware = watchEffects(provider) as unknown as Record<string, (effects: AuditEffect[], ...rest: unknown[]) => unknown>;
  for (const [name, around] of Object.entries(middleware)) {
    const next = shared[name];
    // An optional method the provider lacks stays absent.
    if (typeof next !== 'function') continue;
    shared[name] = function watched(this: CallView | undefined, ...args: unknown[]) {
      const effects = this?.[EFFECTS];
      // Never a change left out of its record: a method called off its call's view does nothing.
      if (effects === undefined) throw new TypeError(`${name} of an audited provider was called without its provider as this.`);
      return around(effects, next, ...args);
    };
  }
  return shared as unknown as FileSystemProviderV1;
}

/** The middleware of `watchProvider`: `provider` is observed (stat and read) before a change. */
function watchEffects(provider: FileSystemProviderV1): EffectsMiddleware {
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
    async writeFile(effects, next, path, bytes, options) {
      // With expectedSha256 the write lands only over exactly those bytes; without overwrite only over nothing.
      const before = !options.overwrite ? null : options.expectedSha256 !== undefined ? options.expectedSha256 : await observe(path);
      const outcome = await next(path, bytes, options);
      effects.push({ path, before_sha256: outcome.created ? null : before, after_sha256: sha256Hex(bytes), size_bytes: bytes.byteLength });
      return outcome;
    },
    async makeDirectory(effects, next, path, options) {
      const outcome = await next(path, options);
      if (outcome.created) effects.push({ path, before_sha256: null, after_sha256: null, size_bytes: null });
      return outcome;
    },
    async deleteFile(effects, next, path, options) {
      const before = await observe(path);
      const outcome = await next(path, options);
      if (outcome.deleted) effects.push({ path, before_sha256: before, after_sha256: null, size_bytes: null });
      return outcome;
    },
    async deleteDirectory(effects, next, path, options) {
      const outcome = await next(path, options);
      if (outcome.deleted) effects.push({ path, before_sha256: null, after_sha256: null, size_bytes: null });
      return outcome;
    },
    // Both hashes are observed (no digest resumes from another): a file past the cap is "unknown".
    async appendFile(effects, next, path, bytes, options) {
      const before = await observe(path);
      const outcome = await next(path, bytes, options);
      const after = await observe(path);
      effects.push({ path, before_sha256: outcome.created ? null : before, after_sha256: after, size_bytes: outcome.sizeBytes });
      return outcome;
    },
    async copyFile(effects, next, from, to, options) {
      const copied = await observe(from);
      const replaced = options.overwrite ? await observe(to) : null;
      const outcome = await next(from, to, options);
      effects.push({ path: to, before_sha256: outcome.replaced ? replaced : null, after_sha256: copied, size_bytes: outcome.bytesCopied });
      return outcome;
    },
    async rename(effects, next, from, to, options) {
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
