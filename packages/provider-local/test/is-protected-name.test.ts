import { describe, expect, it } from 'vitest';
import { isGitAlias } from '@libos/core';
import { isProtectedName } from '../src/is-protected-name.js';

describe('the fast .git alias filter used by recursive delete', () => {
  it('agrees with core wherever a character stands in for the g of .git or git~1', () => {
    const disagreements: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCharCode(code);
      for (const name of [`.${character}it`, `${character}it~1`, `.${character}IT`, `.${character}it:x`]) {
        if (isGitAlias(name) !== isProtectedName(name)) disagreements.push(name);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('agrees with core on the listed aliases and look-alikes', () => {
    for (const name of [
      '.git',
      '.GIT',
      '.git.',
      '.git ',
      '.git::$INDEX_ALLOCATION',
      'GIT~1',
      '.g\u200Bit',
      '.gıt',
      '.gitignore',
      '.github',
      'x.git',
      'file.txt',
    ]) {
      expect(isProtectedName(name), name).toBe(isGitAlias(name));
    }
  });
});
