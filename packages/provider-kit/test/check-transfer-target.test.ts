import { LibosError, type EntryKind, type WorkspacePath } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { checkTransferTarget } from '../src/index.js';

const to = 'docs/target.txt' as WorkspacePath;

function outcome(kind: EntryKind | 'missing', overwrite: boolean): string {
  try {
    checkTransferTarget(to, kind, overwrite);
    return 'passes';
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    expect(error.effect).toBe('none');
    expect(error.details).toMatchObject({ path: to });
    return error.code;
  }
}

describe('checkTransferTarget', () => {
  it.each([
    ['missing', false, 'passes'],
    ['missing', true, 'passes'],
    ['file', true, 'passes'],
    ['file', false, 'already_exists'],
    // The wrong kind wins over overwrite: false.
    ['directory', false, 'not_a_file'],
    ['directory', true, 'not_a_file'],
    ['other', false, 'not_a_file'],
    ['symlink', false, 'symlink_refused'],
    ['symlink', true, 'symlink_refused'],
  ] as const)('%s at the target with overwrite %s: %s', (kind, overwrite, expected) => {
    expect(outcome(kind, overwrite)).toBe(expected);
  });
});
