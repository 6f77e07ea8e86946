import { Buffer } from 'node:buffer';

/** What a search looks for, as `search_files` takes it. */
export interface NeedleQuery {
  readonly query: string;
  readonly regex: boolean;
  readonly caseSensitive: boolean;
  readonly encoding: string;
}

/**
 * Byte strings every file holding a match must hold (in its bytes read), for a provider to narrow a
 * search where the data lives (`TreeSearchQuery.needles`). Sound, not complete: an empty list
 * (every file a candidate) wherever a needle could be wrong. A case-sensitive search in UTF-8 of a
 * well-formed query only, as for the literal prefilter: there a decoded line holding a run of
 * literal characters comes from bytes holding that run's UTF-8. A regex gives the runs of literal
 * characters of its top level that every match must pass through; an alternation, a flag group, a
 * quoted run (`\Q`) or an octal escape anywhere gives none, because reading them right would take
 * a full parser and a wrong needle would hide a match.
 */
export function searchNeedles(search: NeedleQuery): Uint8Array[] {
  if (!search.caseSensitive || !search.query.isWellFormed()) return [];
  if (search.encoding !== 'utf-8' && search.encoding !== 'utf-8-sig') return [];
  const runs = search.regex ? regexRuns(search.query) : [search.query];
  return runs === undefined ? [] : runs.filter((run) => run.length > 0).map((run) => new Uint8Array(Buffer.from(run, 'utf8')));
}

/**
 * For a search that ignores case, the `TreeSearchQuery.foldedNeedles`: the same literal runs, cut
 * into the pieces every match holds in ASCII, lower-cased. RE2 folds an ASCII letter only onto its
 * other ASCII case, except `k` (also KELVIN SIGN) and `s` (also LONG S), so those two and every
 * character outside ASCII end a piece: the text matched there may be other bytes.
 */
export function foldedSearchNeedles(search: NeedleQuery): Uint8Array[] {
  if (search.caseSensitive || !search.query.isWellFormed()) return [];
  if (search.encoding !== 'utf-8' && search.encoding !== 'utf-8-sig') return [];
  const runs = search.regex ? regexRuns(search.query) : [search.query];
  if (runs === undefined) return [];
  // Cut before lowering: lowering a character outside ASCII can give ASCII (`İ` gives `i` and a dot).
  const pieces = runs.flatMap((run) => run.split(/[^\x00-\x7f]|[kKsS]/u).map((piece) => piece.toLowerCase()));
  return pieces.filter((piece) => piece.length > 0).map((piece) => new Uint8Array(Buffer.from(piece, 'latin1')));
}

const BREAKS = new Set(['.', '^', '$', ')', ']', '}']);
const OPTIONAL_AFTER = new Set(['*', '?', '{']);

// The literal runs of a pattern's top level; undefined when the pattern uses what this reader
// does not follow (see searchNeedles).
function regexRuns(pattern: string): string[] | undefined {
  if (/\(\?[A-Za-z-]*i/.test(pattern)) return undefined;
  // A bare flag group is no atom: a repetition after it applies to what stands before it (RE2
  // reads `a(?)?` and `a(?s)*` as `a?` and `a*`), so a run that seems to end there may be optional.
  if (/\(\?[A-Za-z-]*\)/.test(pattern)) return undefined;
  const chars = Array.from(pattern);
  const runs: string[] = [];
  let run: string[] = [];
  const end = () => {
    if (run.length > 0) runs.push(run.join(''));
    run = [];
  };
  let depth = 0;
  for (let at = 0; at < chars.length; ) {
    const char = chars[at]!;
    if (char === '|') return undefined;
    if (char === '(') {
      depth++;
      end();
      at++;
      continue;
    }
    if (char === ')') {
      depth = Math.max(0, depth - 1);
      end();
      at++;
      continue;
    }
    if (char === '[') {
      end();
      at = afterClass(chars, at);
      continue;
    }
    if (char === '{') {
      // A repetition's count is not text; a brace that is not one, RE2 reads as itself, and so would we only by guessing.
      const count = /^\{\d+(,\d*)?\}/.exec(chars.slice(at, at + 24).join(''));
      if (count === null) return undefined;
      end();
      at += count[0].length;
      continue;
    }
    let literal: string | undefined;
    let next = at + 1;
    if (char === '\\') {
      const escaped = chars[at + 1];
      if (escaped === undefined) return undefined;
      if (/[A-Za-z0-9]/.test(escaped)) {
        if (escaped === 'Q' || /[0-9]/.test(escaped)) return undefined;
        next = afterEscape(chars, at);
      } else {
        literal = escaped;
        next = at + 2;
      }
    } else if (!BREAKS.has(char) && !OPTIONAL_AFTER.has(char) && char !== '+') {
      literal = char;
    }
    if (literal === undefined || depth > 0) {
      end();
      at = next;
      continue;
    }
    const after = chars[next];
    if (after !== undefined && OPTIONAL_AFTER.has(after)) {
      // The character may be absent (`a?`, `a*`, `a{0,1}`): the run ends before it.
      end();
    } else if (after === '+') {
      // `ab+c` matches `abbc`: the run ends with the repeated character.
      run.push(literal);
      end();
    } else {
      run.push(literal);
    }
    at = next;
  }
  end();
  return runs;
}

// The index after a character class starting at `at` (RE2: a leading `]` or `^]` is literal,
// `[:name:]` names a class inside one, `\` escapes).
function afterClass(chars: readonly string[], at: number): number {
  let index = at + 1;
  if (chars[index] === '^') index++;
  if (chars[index] === ']') index++;
  while (index < chars.length) {
    const char = chars[index]!;
    if (char === '\\') index += 2;
    else if (char === '[' && chars[index + 1] === ':') {
      const close = chars.indexOf(':', index + 2);
      index = close !== -1 && chars[close + 1] === ']' ? close + 2 : index + 1;
    } else if (char === ']') return index + 1;
    else index++;
  }
  return index;
}

// The index after an escape of a letter: `\p{Greek}` and `\pL`, `\x{41}` and `\x41`, or one letter.
function afterEscape(chars: readonly string[], at: number): number {
  const kind = chars[at + 1];
  if (kind === 'p' || kind === 'P' || kind === 'x') {
    if (chars[at + 2] === '{') {
      const close = chars.indexOf('}', at + 3);
      return close === -1 ? chars.length : close + 1;
    }
    return at + (kind === 'x' ? 4 : 3);
  }
  return at + 2;
}
