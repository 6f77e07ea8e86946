import { nameKey } from './name-key.js';

// Unicode default-ignorable code points vanish on some filesystems (HFS+), so `.g\u200Bit` can name `.git`.
const defaultIgnorable = /\p{Default_Ignorable_Code_Point}/gu;
const trailingDotsAndSpaces = /[. ]+$/u;
// Every step below maps an ASCII name to an ASCII name and keeps its letters' g-ness, and both
// spellings hold a `g`: an ASCII name without one is no alias (most names; a search asks per entry).
const asciiWithoutG = /^[^gG\u0080-\uffff]*$/;

/**
 * Tells whether one path component names `.git` on some filesystem: any letter case, default-ignorable
 * code points removed, trailing dots or spaces, an NTFS stream suffix (`.git::$INDEX_ALLOCATION`), or
 * the 8.3 short name `git~1`. `.gitignore`, `.github` and `x.git` are ordinary names.
 */
export function isGitAlias(component: string): boolean {
  if (asciiWithoutG.test(component)) return false;
  // Judged on the name's key too (NFC, no-break spaces as spaces): `.git` followed by U+00A0 is a
  // spelling of `.git `, which the lookup of a name not found exactly would otherwise reach.
  let name = nameKey(component.replace(defaultIgnorable, ''));
  const streamStart = name.indexOf(':');
  if (streamStart !== -1) name = name.slice(0, streamStart);
  name = name.replace(trailingDotsAndSpaces, '');
  return matches(name, '.git') || matches(name, 'git~1');
}

// Both directions of case mapping: `.GİT` lowers and `.gıt` uppers onto the plain spelling.
function matches(name: string, plain: string): boolean {
  return name.toLowerCase() === plain || name.toUpperCase() === plain.toUpperCase();
}
