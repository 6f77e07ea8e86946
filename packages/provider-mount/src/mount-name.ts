import { LibosError, NAME_MAX_BYTES, escapeForDisplay, isGitAlias, utf8ByteLength } from '@libos/core';

// Characters that would let one mount name hide, break or look like another in a listing, a
// message or an approval prompt: controls, format characters (bidirectional overrides, zero-width
// joiners), line and paragraph separators and every default-ignorable code point.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Why `name` cannot name a mount, or undefined when it can. A mount name is one path component
 * the tools can address: not empty, `.`, `..` or a `.git` alias, no `/` or NUL, at most 255 UTF-8
 * bytes, well-formed, with no hidden characters and no surrounding whitespace.
 */
export function mountNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name === '.' || name === '..') return 'it is . or ..';
  if (name.includes('/')) return 'it contains /, so it would look like a path';
  if (name.includes('\0')) return 'it contains a NUL byte';
  if (!name.isWellFormed()) return 'it is not well-formed Unicode';
  if (HIDDEN.test(name)) return 'it contains a control, format or invisible character';
  if (name.trim() !== name) return 'it starts or ends with whitespace';
  if (utf8ByteLength(name) > NAME_MAX_BYTES) return `it is longer than ${NAME_MAX_BYTES} bytes`;
  if (isGitAlias(name)) return 'it names a .git directory, which is protected';
  return undefined;
}

/**
 * Checks a list of mount names: each valid (`mountNameProblem`), none repeated, and no two equal
 * once normalized to NFC (two names that look the same would let a rule written for one miss the
 * other). Throws `invalid_arguments` naming the first bad name, escaped for display.
 */
export function checkMountNames(names: readonly string[]): void {
  if (names.length === 0) throw new LibosError('invalid_arguments', 'A mount provider needs at least one mount.');
  const seen = new Map<string, string>();
  for (const name of names) {
    const problem = mountNameProblem(name);
    const shown = `"${escapeForDisplay(name, { quotes: true, maxLength: 300 })}"`;
    if (problem !== undefined) {
      throw new LibosError('invalid_arguments', `The mount name ${shown} is refused: ${problem}.`, { details: { reason: 'invalid_mount_name' } });
    }
    const twin = seen.get(name.normalize('NFC'));
    if (twin !== undefined) {
      const what = twin === name ? 'is given twice' : `looks the same as "${escapeForDisplay(twin, { quotes: true })}" (equal in Unicode NFC)`;
      throw new LibosError('invalid_arguments', `The mount name ${shown} ${what}.`, { details: { reason: 'duplicate_mount_name' } });
    }
    seen.set(name.normalize('NFC'), name);
  }
}
