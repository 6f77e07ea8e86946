import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FileSystemProviderV1 } from '@libos/core';

/** The same provider without `searchTree`: the tools walk it directory by directory. */
export function walkOnly(provider: FileSystemProviderV1): FileSystemProviderV1 {
  const { searchTree: _unused, ...rest } = provider;
  return rest;
}

/** Writes a generated scenario's files under `root` of a sandbox, making their directories. */
export function writeScenarioFiles(at: (path: string) => string, root: string, files: readonly { path: string; bytes: Uint8Array | string }[]): void {
  for (const { path, bytes } of files) {
    mkdirSync(dirname(at(`${root}/${path}`)), { recursive: true });
    writeFileSync(at(`${root}/${path}`), bytes);
  }
}
