import { compileGlobProgram, type GlobToken } from './glob-program.js';

/** A compiled file-name filter over the code points of a path relative to the search root. */
export interface GlobFilter {
  matches(codes: ArrayLike<number>): boolean;
}

const SLASH = 0x2f;

/**
 * Compiles a glob into a state machine that never backtracks (glob-program.ts), so matching costs
 * at most the name's length times the glob's, however the glob is written (`*a*a*a*b`, `**​/a**​/a`).
 * `*` and `?` stay within one path segment, `[...]` is a character class (`[!...]` or `[^...]`
 * negated, never matching `/`; `a-z` a range), `**` spans directories, `\` escapes the next
 * character. A glob without `/` is matched against the file's own name at any depth, one with `/`
 * against its whole path below the search root. Returns undefined for a malformed glob.
 */
export function compileGlob(glob: string): GlobFilter | undefined {
  const tokens: GlobToken[] = [];
  const characters = [...glob];
  for (let index = 0; index < characters.length; index++) {
    const character = characters[index]!;
    if (character === '*') {
      if (characters[index + 1] === '*') {
        index++;
        if (characters[index + 1] === '/') {
          index++;
          tokens.push({ kind: 'directories' });
        } else tokens.push({ kind: 'any', crossesSlash: true });
      } else tokens.push({ kind: 'any', crossesSlash: false });
    } else if (character === '?') tokens.push({ kind: 'one', test: 'not_slash' });
    else if (character === '[') {
      const close = characters.indexOf(']', index + 2);
      if (close === -1) return undefined;
      let body = characters.slice(index + 1, close);
      const negated = body[0] === '!' || body[0] === '^';
      if (negated) body = body.slice(1);
      if (body.length === 0) return undefined;
      const ranges = classRanges(body);
      if (ranges === undefined) return undefined;
      tokens.push({ kind: 'one', test: { negated, ranges, posix: [] } });
      index = close;
    } else if (character === '\\') {
      const next = characters[++index];
      if (next === undefined) return undefined;
      tokens.push({ kind: 'one', test: next.codePointAt(0)! });
    } else tokens.push({ kind: 'one', test: character.codePointAt(0)! });
  }
  const program = compileGlobProgram(tokens);
  const nameOnly = !glob.includes('/');
  return {
    matches(codes) {
      let start = 0;
      if (nameOnly) for (let index = codes.length - 1; index >= 0 && start === 0; index--) if (codes[index] === SLASH) start = index + 1;
      return program.test(codes, start);
    },
  };
}

// Every character of a class body stands for itself, and `x-y` between two of them is a range
// (a `-` first or last is itself); a range running backwards makes the glob malformed.
function classRanges(body: readonly string[]): number[] | undefined {
  const ranges: number[] = [];
  for (let index = 0; index < body.length; index++) {
    const low = body[index]!.codePointAt(0)!;
    if (body[index + 1] === '-' && index + 2 < body.length) {
      const high = body[index + 2]!.codePointAt(0)!;
      if (high < low) return undefined;
      ranges.push(low, high);
      index += 2;
    } else ranges.push(low, low);
  }
  return ranges;
}
