import { utf8 } from '../case-context.js';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';

/** After `close()` every call fails with `provider_failure` and touches nothing. */
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
];
