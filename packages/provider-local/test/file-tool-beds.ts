import { statSync } from 'node:fs';
import type { FileSystemProviderV1 } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime, type Runtime, type RuntimeOptions, type RuntimeProcess } from '@libos/tools';
import { afterEach } from 'vitest';
import { createLocalTestbed } from './local-testbed.js';

/** The raw fixtures both providers' testbeds offer, in the conformance kit's shape. */
export interface BedFixtures {
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  makeDirectory(path: string): Promise<void>;
  symlink(path: string, target: string): Promise<void>;
  hardLink(existingPath: string, newPath: string): Promise<void>;
  readFile(path: string): Promise<Uint8Array | null>;
  kindOf(path: string): Promise<'file' | 'directory' | 'symlink' | 'other' | 'missing'>;
  readonly outside: { fileTarget(fromDirectory: string): string; fingerprint(): Promise<string> };
}

/** A runtime over one provider, its root process and fixtures to arrange and observe state. */
export interface ToolBed {
  readonly runtime: Runtime;
  readonly process: RuntimeProcess;
  readonly provider: FileSystemProviderV1;
  readonly fixtures: BedFixtures;
  /** The permission bits of a file, where the provider's store has them on the host (local only). */
  readonly modeOf?: (path: string) => number;
  /** The host path of a workspace path (local only). */
  readonly hostPath?: (path: string) => string;
  text(path: string): Promise<string | null>;
}

type MakeBed = (options?: Omit<RuntimeOptions, 'provider'>, wrap?: (provider: FileSystemProviderV1) => FileSystemProviderV1) => Promise<ToolBed>;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const decoder = new TextDecoder();

/** The two providers every file-tool rule is tested on, through `process.call`. */
export const TOOL_BEDS: ReadonlyArray<readonly [string, MakeBed]> = [
  [
    'memfs',
    async (options = {}, wrap = (provider) => provider) => {
      const { provider, fixtures } = createMemfsTestbed();
      const runtime = await createRuntime({ provider: wrap(provider), ...options });
      cleanups.push(() => runtime.close());
      return { runtime, process: runtime.spawn(), provider, fixtures, text: async (path) => decodeOrNull(await fixtures.readFile(path)) };
    },
  ],
  [
    'local',
    async (options = {}, wrap = (provider) => provider) => {
      const { sandbox, provider, fixtures } = createLocalTestbed();
      const runtime = await createRuntime({ provider: wrap(provider), ...options });
      cleanups.push(() => sandbox.remove());
      cleanups.push(() => runtime.close());
      return {
        runtime,
        process: runtime.spawn(),
        provider,
        fixtures,
        modeOf: (path) => statSync(sandbox.at(path)).mode & 0o7777,
        hostPath: (path) => sandbox.at(path),
        text: async (path) => decodeOrNull(await fixtures.readFile(path)),
      };
    },
  ],
];

function decodeOrNull(bytes: Uint8Array | null): string | null {
  return bytes === null ? null : decoder.decode(bytes);
}
