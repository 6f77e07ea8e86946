import { POSIX_CLASSES, compileGlobProgram, type CodeClass, type GlobProgram, type GlobToken } from './glob-program.js';

/** One pattern of a `.gitignore` file, compiled. */
interface IgnoreRule {
  readonly negated: boolean;
  readonly directoryOnly: boolean;
  readonly program: GlobProgram;
}

/** The rules of one `.gitignore` file, and the directory (relative to the workspace root, '' for the root) they are relative to. */
export interface IgnoreFile {
  readonly base: string;
  /** Where a workspace path's part relative to `base` starts, in code points (0 for the root, else the base's length and its slash). */
  readonly start: number;
  readonly rules: readonly IgnoreRule[];
}

/** A pause the caller's clock asks for (undefined: go on), and that throws once the walk is stopped. */
export type Pause = () => Promise<void> | undefined;

/**
 * The longest pattern line applied, in code points (the bound of a `glob` input): one test costs
 * the path's length times the pattern's, so this bounds each step between two pauses. A longer
 * line is skipped, as a pattern git could never match is.
 */
export const IGNORE_RULE_MAX_LENGTH = 4096;

/**
 * Parses a `.gitignore` the way git reads one: a UTF-8 BOM skipped, lines split at `\n` (a `\r`
 * before it dropped), blank lines and `#` comments skipped, trailing spaces dropped unless escaped,
 * `!` negates, `\` escapes the next character (`\#`, `\!`, `\ `), a trailing `/` matches
 * directories only, a `/` at the start or in the middle anchors the pattern to the file's
 * directory (else it matches a name at any depth below it), `*` and `?` stay within a component,
 * `[...]` is a class (`!` or `^` negates it), and `**` as a whole component spans directories
 * (`**​/x`, `a/**​/b`, `a/**`); any other run of asterisks is one `*`. A pattern git could never
 * match (an unclosed `[`, a trailing lone `\`, a backwards range) matches nothing, and so does a
 * line past `IGNORE_RULE_MAX_LENGTH`. Patterns become state machines that never backtrack
 * (glob-program.ts), and `pause` is offered between lines: a hostile file of a megabyte costs
 * time the walk's clock bounds, never a stalled event loop. Undefined when the file holds no pattern.
 */
export async function parseGitignore(text: string, base: string, pause: Pause): Promise<IgnoreFile | undefined> {
  const rules: IgnoreRule[] = [];
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  for (let start = 0; start <= body.length; ) {
    const waiting = pause();
    if (waiting !== undefined) await waiting;
    const newline = body.indexOf('\n', start);
    const end = newline === -1 ? body.length : newline;
    const rawLine = body.slice(start, end);
    start = end + 1;
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line.length > IGNORE_RULE_MAX_LENGTH * 2 || [...line].length > IGNORE_RULE_MAX_LENGTH) continue;
    const rule = parseLine(line);
    if (rule !== undefined) rules.push(rule);
  }
  return rules.length === 0 ? undefined : { base, start: base === '' ? 0 : [...base].length + 1, rules };
}

/**
 * What `file` says about the path whose code points are `codes` from `start` on (relative to
 * `file.base`): `true` ignored, `false` re-included by a negation, undefined when no rule matches.
 * The last matching rule decides. `pause` is offered before each rule.
 */
export async function ignoreVerdict(
  file: IgnoreFile,
  codes: ArrayLike<number>,
  start: number,
  isDirectory: boolean,
  pause: Pause,
): Promise<boolean | undefined> {
  for (let index = file.rules.length - 1; index >= 0; index--) {
    const rule = file.rules[index]!;
    if (rule.directoryOnly && !isDirectory) continue;
    const waiting = pause();
    if (waiting !== undefined) await waiting;
    if (rule.program.test(codes, start)) return !rule.negated;
  }
  return undefined;
}

function parseLine(line: string): IgnoreRule | undefined {
  if (line === '' || line.startsWith('#')) return undefined;
  let text = trimTrailingSpaces(line);
  let negated = false;
  if (text.startsWith('!')) {
    negated = true;
    text = text.slice(1);
  }
  let directoryOnly = false;
  if (text.endsWith('/') && !isEscapedAt(text, text.length - 1)) {
    directoryOnly = true;
    text = text.slice(0, -1);
  }
  if (text === '') return undefined;
  // A slash anywhere but at the end anchors the pattern to the directory of the .gitignore.
  const anchored = hasUnescapedSlash(text);
  if (text.startsWith('/')) text = text.slice(1);
  const translated = translate(text);
  if (translated === undefined) return undefined;
  const tokens: GlobToken[] = anchored ? translated : [{ kind: 'directories' }, ...translated];
  return { negated, directoryOnly, program: compileGlobProgram(tokens) };
}

// Trailing spaces are dropped unless the last one is escaped with a backslash.
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') {
    if (isEscapedAt(line, end - 1)) break;
    end--;
  }
  return line.slice(0, end);
}

// Whether the character at `index` follows an odd number of backslashes.
function isEscapedAt(text: string, index: number): boolean {
  let slashes = 0;
  for (let at = index - 1; at >= 0 && text[at] === '\\'; at--) slashes++;
  return slashes % 2 === 1;
}

function hasUnescapedSlash(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === '/') return true;
  }
  return false;
}

/** The tokens of a wildmatch pattern with git's pathname rules; undefined for one that can match nothing. */
function translate(pattern: string): GlobToken[] | undefined {
  const characters = [...pattern];
  const out: GlobToken[] = [];
  for (let index = 0; index < characters.length; index++) {
    const character = characters[index]!;
    if (character === '*') {
      let end = index;
      while (characters[end + 1] === '*') end++;
      const run = end - index + 1;
      const atStart = index === 0 || characters[index - 1] === '/';
      const atEnd = end === characters.length - 1 || characters[end + 1] === '/';
      if (run >= 2 && atStart && atEnd) {
        if (end === characters.length - 1) {
          // `a/**` (everything inside) or a lone `**` (everything).
          out.push({ kind: 'any', crossesSlash: true });
        } else {
          // `**/` at the start or `/**/` in the middle: zero or more whole directories.
          out.push({ kind: 'directories' });
          end++;
        }
      } else out.push({ kind: 'any', crossesSlash: false });
      index = end;
    } else if (character === '?') out.push({ kind: 'one', test: 'not_slash' });
    else if (character === '[') {
      const parsed = translateClass(characters, index);
      if (parsed === undefined) return undefined;
      out.push({ kind: 'one', test: parsed.test });
      index = parsed.end;
    } else if (character === '\\') {
      const next = characters[++index];
      if (next === undefined) return undefined;
      out.push({ kind: 'one', test: next.codePointAt(0)! });
    } else out.push({ kind: 'one', test: character.codePointAt(0)! });
  }
  return out;
}

type ClassItem = { readonly code: number; readonly dash: boolean } | { readonly posix: string };

// A bracket expression from `start` (the `[`): `!` or `^` negates, a `]` first is literal, `\`
// escapes, `a-z` ranges, `[:alpha:]` classes; a negated one never matches `/`.
function translateClass(characters: readonly string[], start: number): { test: CodeClass; end: number } | undefined {
  let index = start + 1;
  let negated = false;
  if (characters[index] === '!' || characters[index] === '^') {
    negated = true;
    index++;
  }
  const items: ClassItem[] = [];
  for (; index < characters.length; index++) {
    const character = characters[index]!;
    if (character === ']' && items.length > 0) {
      const test = classOf(items, negated);
      return test === undefined ? undefined : { test, end: index };
    }
    if (character === '\\') {
      const next = characters[++index];
      if (next === undefined) return undefined;
      items.push({ code: next.codePointAt(0)!, dash: false });
    } else if (character === '[' && characters[index + 1] === ':') {
      const close = characters.indexOf(']', index + 2);
      const name = close === -1 ? '' : characters.slice(index + 2, close - 1).join('');
      if (close === -1 || characters[close - 1] !== ':' || !POSIX_CLASSES.has(name)) return undefined;
      items.push({ posix: name });
      index = close;
    } else {
      // A `-` between two characters (not first, not before the closing `]`) makes a range.
      const dash = character === '-' && items.length > 0 && characters[index + 1] !== ']' && characters[index + 1] !== undefined;
      items.push({ code: character.codePointAt(0)!, dash });
    }
  }
  return undefined;
}

// A range runs between the characters on either side of a range dash (a dash after a POSIX class
// is itself); one running backwards, or up to a POSIX class, makes the pattern match nothing.
function classOf(items: readonly ClassItem[], negated: boolean): CodeClass | undefined {
  const ranges: number[] = [];
  const posix: string[] = [];
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    if ('posix' in item) {
      posix.push(item.posix);
      continue;
    }
    const dash = items[index + 1];
    const high = items[index + 2];
    if (isRangeDash(dash) && high !== undefined) {
      if ('posix' in high || high.code < item.code) return undefined;
      ranges.push(item.code, high.code);
      index += 2;
    } else ranges.push(item.code, item.code);
  }
  return { negated, ranges, posix };
}

function isRangeDash(item: ClassItem | undefined): boolean {
  return item !== undefined && 'code' in item && item.dash;
}
