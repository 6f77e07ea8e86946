import { describe, expect, it } from 'vitest';
import { isGitAlias } from '../src/index.js';

describe('isGitAlias', () => {
  it.each([
    '.git',
    '.GIT',
    '.Git',
    '.git.',
    '.git...',
    '.git ',
    '.git. .',
    '.g\u200bit',
    '\u200d.git',
    '.git\ufeff',
    '.git::$INDEX_ALLOCATION',
    '.git:x',
    '.git:',
    'git~1',
    'GIT~1',
    'Git~1.',
    '.g\u0131t', // dotless i upper-cases to I
    '.\u00adgit', // soft hyphen is default-ignorable
    '.git\u00a0', // a no-break space is a space to the lookup of names in another Unicode form
    '.git.\u202f',
  ])('%j is an alias', (name) => {
    expect(isGitAlias(name)).toBe(true);
  });

  it.each(['.gitignore', '.github', 'x.git', 'git', '.gi', 'git~2', '.git-x', '..git', 'a.git:b'])('%j is an ordinary name', (name) => {
    expect(isGitAlias(name)).toBe(false);
  });
});
