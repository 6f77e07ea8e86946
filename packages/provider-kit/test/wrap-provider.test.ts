import { ROOT_PATH, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { PROVIDER_METHODS, wrapProvider, type ListsEveryMethod } from '../src/index.js';

// The type test: `pnpm turbo run typecheck` fails if any line below stops holding.
// The list names every method of today's interface...
const today: ListsEveryMethod<FileSystemProviderV1, typeof PROVIDER_METHODS> = true;
// ...and a method added to the interface without being added to the list is a type error.
interface GrownProvider extends FileSystemProviderV1 {
  truncateFile?(path: WorkspacePath, options: { readonly sizeBytes: number }): Promise<void>;
}
// @ts-expect-error: PROVIDER_METHODS lacks truncateFile, which GrownProvider has
const grown: ListsEveryMethod<GrownProvider, typeof PROVIDER_METHODS> = true;
const missing: ListsEveryMethod<GrownProvider, typeof PROVIDER_METHODS> = 'truncateFile';

/** A provider with every required method, recording each call by name; `optional` picks the optional ones it has. */
function recordingProvider(optional: readonly string[]): { provider: FileSystemProviderV1; calls: string[] } {
  const calls: string[] = [];
  const provider: Record<string, unknown> = {
    specificationVersion: 'v1',
    name: 'recording',
    capabilities: { symlinks: false, hardLinks: false, specialFiles: false, atomicReplace: true, exclusiveCreate: true, durableWrites: true },
  };
  const required = ['stat', 'listDirectory', 'readFile', 'writeFile', 'makeDirectory', 'deleteFile', 'deleteDirectory', 'close'];
  for (const name of [...required, ...optional]) {
    provider[name] = function (this: unknown, ...args: unknown[]) {
      // A class instance's private state is reached through `this`: a wrapper must keep it.
      if (this !== provider) throw new Error(`${name} lost its this`);
      calls.push(`${name}:${JSON.stringify(args)}`);
      return name === 'checkPath' || name === 'hostPath' ? undefined : Promise.resolve({});
    };
  }
  return { provider: provider as unknown as FileSystemProviderV1, calls };
}

describe('wrapProvider', () => {
  it('holds the compile-time checks above', () => {
    expect([today, grown, missing]).toEqual([true, true, 'truncateFile']);
  });

  it('forwards every method the provider has, with its this, and adds none it lacks', async () => {
    const full = recordingProvider(
      PROVIDER_METHODS.filter(
        (name) => !['stat', 'listDirectory', 'readFile', 'writeFile', 'makeDirectory', 'deleteFile', 'deleteDirectory', 'close'].includes(name),
      ),
    );
    const wrapped = wrapProvider(full.provider, {});
    for (const name of PROVIDER_METHODS) {
      expect(typeof wrapped[name], name).toBe('function');
      await (wrapped[name] as (...args: unknown[]) => unknown)(ROOT_PATH, { marker: name });
    }
    expect(full.calls).toEqual(PROVIDER_METHODS.map((name) => `${name}:${JSON.stringify(['.', { marker: name }])}`));
    expect([wrapped.name, wrapped.specificationVersion, wrapped.capabilities]).toEqual([full.provider.name, 'v1', full.provider.capabilities]);

    const bare = wrapProvider(recordingProvider([]).provider, {});
    expect(['rename', 'appendFile', 'copyFile', 'readFileRange', 'openDirectory', 'checkPath', 'hostPath'].filter((name) => name in bare)).toEqual(
      [],
    );
  });

  it('runs a middleware around the method it names, with the provider own method as next', async () => {
    const { provider, calls } = recordingProvider(['rename']);
    const seen: string[] = [];
    const wrapped = wrapProvider(provider, {
      rename: async (next, from, to, options) => {
        seen.push(`before ${from}->${to}`);
        const outcome = await next(from, to, { ...options, overwrite: true });
        seen.push('after');
        return outcome;
      },
    });
    await wrapped.rename?.('a' as WorkspacePath, 'b' as WorkspacePath, { overwrite: false });
    await wrapped.stat(ROOT_PATH);
    expect(seen).toEqual(['before a->b', 'after']);
    expect(calls).toEqual(['rename:["a","b",{"overwrite":true}]', 'stat:["."]']);
  });

  it('keeps the provider quota', () => {
    const { provider } = recordingProvider([]);
    expect(wrapProvider({ ...provider, workspaceMaxBytes: 1024 }, {}).workspaceMaxBytes).toBe(1024);
    expect('workspaceMaxBytes' in wrapProvider(provider, {})).toBe(false);
  });
});
