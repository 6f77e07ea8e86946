import { LibosError } from '@libos/core';
import { expect } from 'vitest';
import { utf8 } from '../case-context.js';
import { defineCase } from '../conformance-case.js';
import type { CaseContext, ConformanceCase } from '../conformance-case.js';
import { expectUnchanged } from './case-helpers.js';

const group = 'special files';
const requires = { capabilities: ['specialFiles'], fixtures: ['fifo'] } as const;
const deadlineMs = 2000;

async function makeFifo(context: CaseContext, path: string): Promise<void> {
  if (context.fixtures.fifo === undefined) throw new Error('The case requires the fifo fixture.');
  const parent = path.slice(0, Math.max(0, path.lastIndexOf('/')));
  if (parent !== '') await context.fixtures.makeDirectory(parent);
  await context.fixtures.fifo(path);
}

/** A FIFO is kind `other`: listed and observed, never opened, never blocking. */
export const specialFileCases: readonly ConformanceCase[] = [
  defineCase(
    group,
    'stat and listing report a fifo as kind other with no size',
    async (context) => {
      await makeFifo(context, 'd/pipe');
      const status = await context.withinDeadline(() => context.provider.stat(context.path('d/pipe')), deadlineMs);
      expect(status).toMatchObject({ kind: 'other', sizeBytes: null });
      const listing = await expectUnchanged(context, [], () =>
        context.withinDeadline(() => context.provider.listDirectory(context.path('d'), { limit: 10 }), deadlineMs),
      );
      expect(listing.entries.map(({ name, path, kind, sizeBytes }) => [name, path, kind, sizeBytes])).toEqual([['pipe', 'd/pipe', 'other', null]]);
    },
    requires,
  ),
  defineCase(
    group,
    'no call on a fifo blocks, even all at once',
    async (context) => {
      const { provider, path } = context;
      await makeFifo(context, 'pipe');
      const target = path('pipe');
      const calls: Array<() => Promise<unknown>> = [
        () => provider.readFile(target, { maxBytes: 16 }),
        () => provider.writeFile(target, utf8('x'), { overwrite: true }),
        () => provider.writeFile(target, utf8('x'), { overwrite: false }),
        () => provider.deleteFile(target, { missingOk: false }),
        () => provider.listDirectory(target, { limit: 1 }),
      ];
      const outcomes = await context.withinDeadline(() => Promise.allSettled(calls.map((call) => call())), deadlineMs);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        if (outcome.status === 'rejected') expect(LibosError.is(outcome.reason)).toBe(true);
      }
      expect(await context.fixtures.kindOf('pipe')).toBe('other');
    },
    requires,
  ),
  defineCase(
    group,
    'a recursive delete removes a fifo without opening it',
    async (context) => {
      await makeFifo(context, 'tree/pipe');
      await context.fixtures.writeFile('tree/file', 'x');
      const result = await context.withinDeadline(
        () => context.provider.deleteDirectory(context.path('tree'), { recursive: true, missingOk: false }),
        deadlineMs,
      );
      expect(result).toEqual({ deleted: true });
      expect(await context.fixtures.kindOf('tree')).toBe('missing');
    },
    requires,
  ),
];
