import { expect } from 'vitest';
import { utf8 } from '../case-context.js';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';

/** After `close()` every call fails with `provider_failure`; after the root is removed, with `not_found` (reason `root_gone`). */
export const lifecycleCases: readonly ConformanceCase[] = [
  defineCase('lifecycle', 'every call after close fails with provider_failure', async ({ provider, fixtures, path, expectError }) => {
    await fixtures.writeFile('f', 'x');
    await fixtures.makeDirectory('d');
    await provider.close();
    const calls: Array<() => Promise<unknown>> = [
      () => provider.stat(path('f')),
      () => provider.listDirectory(path('.'), { limit: 10 }),
      () => provider.readFile(path('f'), { maxBytes: 10 }),
      () => provider.writeFile(path('new'), utf8('x'), { overwrite: true }),
      () => provider.makeDirectory(path('newdir'), { parents: true, existOk: true }),
      () => provider.deleteFile(path('f'), { missingOk: false }),
      () => provider.deleteDirectory(path('d'), { recursive: true, missingOk: false }),
    ];
    for (const call of calls) await expectError(call, 'provider_failure', 'any');
  }),
  defineCase(
    'lifecycle',
    'every call after the workspace root is removed fails and recreates nothing',
    async ({ provider, fixtures, path, expectError }) => {
      await fixtures.writeFile('d/f', 'x');
      if (fixtures.removeWorkspace === undefined) throw new Error('The case requires the removeWorkspace fixture.');
      await provider.stat(path('d/f'));
      await fixtures.removeWorkspace();
      const calls: Array<() => Promise<unknown>> = [
        () => provider.stat(path('d/f')),
        () => provider.stat(path('.')),
        () => provider.listDirectory(path('.'), { limit: 10 }),
        () => provider.readFile(path('d/f'), { maxBytes: 10 }),
        () => provider.writeFile(path('d/new'), utf8('x'), { overwrite: true }),
        () => provider.writeFile(path('new'), utf8('x'), { overwrite: false }),
        () => provider.makeDirectory(path('newdir'), { parents: true, existOk: true }),
        () => provider.makeDirectory(path('.'), { parents: true, existOk: true }),
        () => provider.deleteFile(path('d/f'), { missingOk: false }),
        () => provider.deleteDirectory(path('d'), { recursive: true, missingOk: false }),
        // missingOk forgives a missing target, not a missing workspace.
        () => provider.deleteFile(path('d/f'), { missingOk: true }),
        () => provider.deleteFile(path('f'), { missingOk: true }),
        () => provider.deleteDirectory(path('d'), { recursive: true, missingOk: true }),
        () => provider.deleteDirectory(path('d'), { recursive: false, missingOk: true }),
      ];
      // Removed, not replaced: `not_found` from `providerErrors.rootGone`, whose reason says why.
      for (const call of calls) {
        const error = await expectError(call, 'not_found', 'any');
        expect(error.details?.reason, `${error.message} (details.reason)`).toBe('root_gone');
      }
      expect(await fixtures.kindOf('.')).toBe('missing');
    },
    { fixtures: ['removeWorkspace'] },
  ),
];
