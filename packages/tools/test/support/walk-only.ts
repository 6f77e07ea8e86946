import type { FileSystemProviderV1 } from '@libos/core';

/** The same provider without `searchTree`: the tools walk it directory by directory. */
export function walkOnly<Provider extends FileSystemProviderV1>(provider: Provider): Omit<Provider, 'searchTree'> {
  const { searchTree: _unused, ...rest } = provider;
  return rest;
}
