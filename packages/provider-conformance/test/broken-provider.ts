import { LibosError } from '@libos/core';
import type { FileSystemProviderV1 } from '@libos/core';
import type { ProviderFactory } from '../src/index.js';
import { memfsTestbed } from './memfs-testbed.js';
import type { Volume } from './memfs-testbed.js';

/** A provider that breaks a promise, the case ids it must fail, and (where that shows precision) ids it must still pass. */
export interface BrokenCase {
  readonly name: string;
  readonly factory: ProviderFactory;
  readonly fails: readonly string[];
  readonly passes?: readonly string[];
}

type Overrides = (inner: FileSystemProviderV1, volume: Volume, at: (path: string) => string) => Partial<FileSystemProviderV1>;

/** A memfs provider with some methods replaced by ones that break one promise. */
export function broken(overrides: Overrides): ProviderFactory {
  return () => {
    const { underTest, volume, at } = memfsTestbed();
    const inner = underTest.provider;
    return { ...underTest, provider: { ...inner, ...overrides(inner, volume, at) } };
  };
}

/** Falls back to raw volume calls, which follow links, whenever the real provider refuses with `code`. */
export async function insteadOf<T>(code: 'symlink_refused' | 'hard_link_refused', action: () => Promise<T>, fallback: () => T): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (LibosError.is(error, code)) return fallback();
    throw error;
  }
}

export const prefix = (bytes: Uint8Array, maxBytes: number) => ({ bytes: bytes.subarray(0, maxBytes), truncated: bytes.length > maxBytes });
/** One turn of the event loop, where a racing call gets in. */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
export const isLink = (volume: Volume, path: string): boolean => {
  try {
    return volume.lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
};

/** Throws `error` changed by `change` when it is a LibosError, else as it is. */
export function rewrap(error: unknown, change: (error: LibosError) => LibosError): never {
  throw LibosError.is(error) ? change(error) : error;
}
