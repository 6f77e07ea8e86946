import { createMemfsProvider } from '@libos/provider-memfs';
import type { ProviderBackend } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { BACKEND_REGISTRY, registryOf } from '../src/workspace/backend-registry.js';
import { openWorkspace } from '../src/workspace/open-workspace.js';
import { workspaceOptionsFrom } from '../src/workspace/workspace-options.js';
import { UsageError } from '../src/usage-error.js';

// A backend a package could contribute: two flags of its own, one required.
const bucket: ProviderBackend = {
  kind: 'provider',
  name: 'bucket',
  summary: 'a test backend',
  servesRoot: false,
  flags: { bucket: { value: 'NAME', description: 'which bucket', required: true }, seed: { value: 'DIR', description: 'a seed' } },
  async open({ flags }) {
    return { provider: createMemfsProvider(), served: `bucket ${flags.bucket}`, hostDirectories: [] };
  },
};

describe('the backend registry', () => {
  it('finds the built-in providers and the PostgreSQL Object store by name and scheme', () => {
    expect(BACKEND_REGISTRY.providers.map((backend) => backend.name)).toEqual(['local', 'memfs']);
    expect(BACKEND_REGISTRY.objectStoreFor('postgresql://u@h/db')?.name).toBe('postgres');
    expect(BACKEND_REGISTRY.objectStoreFor('POSTGRES://u@h/db')?.name).toBe('postgres');
    expect(BACKEND_REGISTRY.objectStoreFor('objects.db')).toBeUndefined();
  });

  it('takes a new backend through the same option checks, with no command changed', () => {
    const registry = registryOf([...BACKEND_REGISTRY.providers, bucket]);
    expect(workspaceOptionsFrom('libos x', { provider: 'bucket', bucket: 'b1', seed: '/s' }, registry)).toMatchObject({
      provider: 'bucket',
      backendFlags: { bucket: 'b1', seed: '/s' },
    });
    expect(() => workspaceOptionsFrom('libos x', { provider: 'bucket' }, registry)).toThrow('libos x: --provider bucket needs --bucket NAME');
    expect(() => workspaceOptionsFrom('libos x', { bucket: 'b1' }, registry)).toThrow(
      'libos x: --bucket applies to --provider bucket, not to --provider local',
    );
    expect(() => workspaceOptionsFrom('libos x', { provider: 'bucket', bucket: 'b', root: '/r' }, registry)).toThrow(
      'libos x: --root applies to --provider local, not to --provider bucket',
    );
    expect(() => workspaceOptionsFrom('libos x', { provider: 'nope' }, registry)).toThrow(
      "libos x: --provider must be one of 'local', 'memfs', 'bucket', not 'nope'",
    );
  });

  it('refuses duplicate names and schemes, and names that are not flag-safe', () => {
    expect(() => registryOf([bucket, bucket])).toThrow('two provider backends are named bucket');
    expect(() => registryOf([{ ...bucket, name: 'Bad Name' }])).toThrow('lowercase letters');
    const store = { kind: 'object-store', name: 's', schemes: ['x:'], open: async () => ({}) as never } as const;
    expect(() => registryOf([store, { ...store, name: 't' }])).toThrow('two Object store backends open x: URLs');
  });

  it('refuses a URL no Object store opens instead of taking it for a file name', () => {
    expect(() => workspaceOptionsFrom('libos x', { objects: 'redis://h/0' })).toThrow(UsageError);
    expect(workspaceOptionsFrom('libos x', { objects: 'objects.db' })).toMatchObject({ objectsFile: 'objects.db' });
  });

  it('opens the memfs backend and says what it serves', async () => {
    const workspace = await openWorkspace({ provider: 'memfs', root: '/unused' });
    try {
      expect(workspace.served).toBe('an empty in-memory volume');
      expect(workspace.hostDirectories).toEqual([]);
    } finally {
      await workspace.close();
    }
  });
});
