import { isGitAlias } from '@libos/core';

const letterG = /[gG]/;

/**
 * `isGitAlias` for names met by the thousand: every alias folds onto `.git` or `git~1`, and no
 * case mapping turns another character into `g`, so a name without `g` or `G` is never one
 * (is-protected-name.test.ts checks that claim against core for every BMP character).
 */
export function isProtectedName(name: string): boolean {
  return letterG.test(name) && isGitAlias(name);
}
