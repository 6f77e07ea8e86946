import { LibosError, type FileSystemProviderV1 } from '@libos/core';

/**
 * One adapter per provider interface version the runtime accepts, each turning a provider of that
 * version into the interface the tools call. The tools never branch on a version: a future `v2`
 * adds a row here (or `v1` becomes an adapter over `v2`), and nothing else changes.
 */
const adapters: Readonly<Record<string, (provider: FileSystemProviderV1) => FileSystemProviderV1>> = {
  v1: (provider) => provider,
};

/** Accepts any provider whose `specificationVersion` has an adapter; throws `invalid_arguments` otherwise. */
export function adaptProvider(provider: unknown): FileSystemProviderV1 {
  const version =
    typeof provider === 'object' && provider !== null ? (provider as { specificationVersion?: unknown }).specificationVersion : undefined;
  const adapter = typeof version === 'string' && Object.hasOwn(adapters, version) ? adapters[version] : undefined;
  if (adapter === undefined) {
    const shown = typeof version === 'string' ? JSON.stringify(version.slice(0, 40)) : 'no specificationVersion';
    throw new LibosError('invalid_arguments', `The provider declares ${shown}; this runtime accepts ${Object.keys(adapters).join(', ')}.`, {
      details: { accepted: Object.keys(adapters) },
    });
  }
  return adapter(provider as FileSystemProviderV1);
}
