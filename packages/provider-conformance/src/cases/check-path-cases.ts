import { LibosError, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import { expect } from 'vitest';
import { utf8 } from '../case-context.js';
import { defineCase } from '../conformance-case.js';
import type { CaseContext, ConformanceCase } from '../conformance-case.js';
import { expectUnchanged } from './case-helpers.js';

// Ordinary names, and names libOS providers are known to keep for themselves (the local provider's
// staging directory, at the root and below), so a verdict the calls disagree with shows.
const candidates = ['plain.txt', 'd/e.txt', '.libos-staging/x', 'd/.libos-staging/x', 'e/.libos-staging', '.libos-overlay-x'];

// Only cases that declare `methods: ['checkPath']` call this, and the kit skips them for a provider without it.
function verdict(provider: FileSystemProviderV1, path: WorkspacePath, creates: boolean): LibosError | null {
  try {
    provider.checkPath!(path, { creates });
    return null;
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    return error;
  }
}

async function refusalOf(action: () => Promise<unknown>): Promise<string | null> {
  try {
    await action();
    return null;
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    return error.code;
  }
}

async function checkCandidate(context: CaseContext, text: string): Promise<void> {
  const { provider, path } = context;
  const at = path(text);
  // Judging a path touches nothing, refused or not.
  const creating = await expectUnchanged(context, [text], async () => verdict(provider, at, true));
  const reading = await expectUnchanged(context, [text], async () => verdict(provider, at, false));
  if (creating === null) {
    expect({ text, reading: reading?.code ?? null }).toEqual({ text, reading: null });
    expect({ text, write: await refusalOf(() => provider.writeFile(at, utf8('x'), { overwrite: false })) }).toEqual({ text, write: null });
    return;
  }
  // A refused path is refused by the calls themselves, with the same code, and nothing changes.
  const write = await expectUnchanged(context, [text], () => refusalOf(() => provider.writeFile(at, utf8('x'), { overwrite: false })));
  expect({ text, write }).toEqual({ text, write: creating.code });
  const read = await refusalOf(() => provider.readFile(at, { maxBytes: 16 }));
  expect({ text, read }).toEqual({ text, read: reading?.code ?? 'not_found' });
}

/** `checkPath`: the provider's verdict on a path, given without touching anything, is the one its calls give. */
export const checkPathCases: readonly ConformanceCase[] = [
  defineCase(
    'check path',
    'refuses exactly the paths its writes refuse, with the same code, and changes nothing',
    async (context) => {
      for (const text of candidates) await checkCandidate(context, text);
    },
    { methods: ['checkPath'] as const },
  ),
];
