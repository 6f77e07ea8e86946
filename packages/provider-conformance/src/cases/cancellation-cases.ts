import { expect } from 'vitest';
import { utf8 } from '../case-context.js';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';
import { expectUnchanged } from './case-helpers.js';

/** A signal that has already aborted stops every method before it changes anything. */
export const cancellationCases: readonly ConformanceCase[] = [
  defineCase('cancellation', 'every call with an aborted signal fails with provider_failure and changes nothing', async (context) => {
    const { provider, fixtures, path, expectError } = context;
    await fixtures.writeFile('f', 'old');
    await fixtures.writeFile('d/inner', 'old');
    const signal = AbortSignal.abort();
    const calls: Array<() => Promise<unknown>> = [
      () => provider.stat(path('f'), { signal }),
      () => provider.listDirectory(path('.'), { limit: 10, signal }),
      () => provider.readFile(path('f'), { maxBytes: 10, signal }),
      () => provider.writeFile(path('f'), utf8('new'), { overwrite: true, signal }),
      () => provider.writeFile(path('new'), utf8('new'), { overwrite: false, signal }),
      () => provider.makeDirectory(path('e/f'), { parents: true, existOk: true, signal }),
      () => provider.deleteFile(path('f'), { missingOk: false, signal }),
      () => provider.deleteDirectory(path('d'), { recursive: true, missingOk: false, signal }),
    ];
    await expectUnchanged(context, ['new', 'e'], async () => {
      for (const call of calls) {
        const error = await expectError(call, 'provider_failure');
        expect(error.details?.reason, error.message).toBe('cancelled');
      }
    });
  }),
  defineCase('cancellation', 'a signal that never aborts changes nothing about a call', async ({ provider, fixtures, path }) => {
    const { signal } = new AbortController();
    await provider.writeFile(path('f'), utf8('new'), { overwrite: true, signal });
    expect(new TextDecoder().decode((await fixtures.readFile('f')) ?? new Uint8Array())).toBe('new');
    expect((await provider.readFile(path('f'), { maxBytes: 10, signal })).truncated).toBe(false);
  }),
];
