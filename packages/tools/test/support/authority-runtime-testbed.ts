import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Approver, ConfigInput, FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { afterAll, beforeAll, expect } from 'vitest';
import { createRuntime } from '../../src/index.js';
import { recordCalls } from './record-calls.js';

export const encoder = new TextEncoder();
export const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');
export const at = (path: string) => path as WorkspacePath;

/** A provider wrapped so every method call is recorded before it runs. */
export function counting(provider: FileSystemProviderV1) {
  const { wrapped, calls } = recordCalls(provider);
  return { provider: wrapped, calls };
}

/** A memfs workspace holding public/ and private/ with a file and a directory each (or nothing in private/). */
export async function workspace(withTargets: boolean) {
  const provider = createMemfsProvider();
  await provider.writeFile(at('public/f.txt'), encoder.encode('public text'), { overwrite: true });
  await provider.makeDirectory(at('public/d'), { parents: true, existOk: true });
  await provider.writeFile(at('notes.txt'), encoder.encode('notes'), { overwrite: true });
  if (withTargets) {
    await provider.writeFile(at('private/f.txt'), encoder.encode('private text'), { overwrite: true });
    await provider.makeDirectory(at('private/d/inner'), { parents: true, existOk: true });
  }
  return counting(provider);
}

/** Every right, for grants that give all of them. */
export const ALL_RIGHTS = ['read', 'write', 'delete'] as const;

export const SHARED = [{ name: 'shared', rights: ['read', 'write'] as ('read' | 'write')[] }];
let checkpointDirectory: string;
let checkpoint: string;

/**
 * Registers, in the calling test file, the hooks that make one checkpoint holding the Object "doc"
 * in the declared namespace "shared": every runtimeOn restores it, so write_object_to_file has
 * something to export whatever the policy lets it read.
 */
export function useSharedCheckpoint(): void {
  beforeAll(async () => {
    checkpointDirectory = mkdtempSync(join(tmpdir(), 'libos-authority-'));
    checkpoint = join(checkpointDirectory, 'shared.sqlite');
    const runtime = await createRuntime({ provider: createMemfsProvider(), config: { namespaces: SHARED } });
    await runtime.provider.writeFile(at('doc.txt'), encoder.encode('object text'), { overwrite: true });
    const made = await runtime.spawn().call('create_object_from_file', { name: 'doc', path: 'doc.txt', namespace: 'shared' });
    expect(made.ok).toBe(true);
    await runtime.checkpoint(checkpoint, { namespaces: ['shared'] });
  });
  afterAll(() => rmSync(checkpointDirectory, { recursive: true, force: true }));
}

/** A runtime over a counting memfs workspace, with the shared checkpoint restored; calls start empty. */
export async function runtimeOn(withTargets: boolean, config: ConfigInput, approver?: Approver) {
  const { provider, calls } = await workspace(withTargets);
  const runtime = await createRuntime({
    provider,
    config: { namespaces: SHARED, ...config },
    restore: checkpoint,
    ...(approver === undefined ? {} : { approver }),
  });
  const process = runtime.spawn();
  calls.length = 0;
  return { runtime, process, calls };
}
