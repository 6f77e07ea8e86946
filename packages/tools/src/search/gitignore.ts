import { RE2JS } from 're2js';

/** One pattern of a `.gitignore` file, compiled. */
interface IgnoreRule {
  readonly negated: boolean;
  readonly directoryOnly: boolean;
  readonly pattern: RE2JS;
}

/** The rules of one `.gitignore` file, and the directory (relative to the workspace root, '' for the root) they are relative to. */
export interface IgnoreFile {
  readonly base: string;
  readonly rules: readonly IgnoreRule[];
  /** Matches whatever any rule matches: most paths match none, and are decided by this one test. */
  readonly any: RE2JS;
}

/**
 * Parses a `.gitignore` the way git reads one: a UTF-8 BOM skipped, lines split at `\n` (a `\r`
 * before it dropped), blank lines and `#` comments skipped, trailing spaces dropped unless escaped,
 * `!` negates, `\` escapes the next character (`\#`, `\!`, `\ `), a trailing `/` matches
 * directories only, a `/` at the start or in the middle anchors the pattern to the file's
 * directory (else it matches a name at any depth below it), `*` and `?` stay within a component,
 * `[...]` is a class (`!` or `^` negates it), and `**` as a whole component spans directories
 * (`**​/x`, `a/**​/b`, `a/**`); any other run of asterisks is one `*`. A pattern git could never
 * match (an unclosed `[`, a trailing lone `\`) matches nothing. Patterns become RE2 programs, so
 * matching is linear in the path whatever a hostile `.gitignore` holds (a backtracking engine
 * would not be: `*a*a*a*a*b` against a long name). Undefined when the file holds no pattern.
 */
export function parseGitignore(text: string, base: string): IgnoreFile | undefined {
  const rules: IgnoreRule[] = [];
  const sources: string[] = [];
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  for (const rawLine of body.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const rule = parseLine(line);
    if (rule === undefined) continue;
    rules.push(rule.compiled);
    sources.push(rule.source);
  }
  if (rules.length === 0) return undefined;
  return { base, rules, any: RE2JS.compile(`^(?:${sources.join('|')})$`, RE2JS.DOTALL) };
}

/**
 * What `file` says about `relativePath` (relative to `file.base`): `true` ignored, `false`
 * re-included by a negation, undefined when no rule matches. The last matching rule decides.
 */
export function ignoreVerdict(file: IgnoreFile, relativePath: string, isDirectory: boolean): boolean | undefined {
  if (!file.any.test(relativePath)) return undefined;
  for (let index = file.rules.length - 1; index >= 0; index--) {
    const rule = file.rules[index]!;
    if (rule.directoryOnly && !isDirectory) continue;
    if (rule.pattern.test(relativePath)) return !rule.negated;
  }
  return undefined;
}

function parseLine(line: string): { compiled: IgnoreRule; source: string } | undefined {
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
  const source = anchored ? translated : `(?:.*/)?${translated}`;
  return { compiled: { negated, directoryOnly, pattern: RE2JS.compile(`^${source}$`, RE2JS.DOTALL) }, source };
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

/** The RE2 source of a wildmatch pattern with git's pathname rules; undefined for one that can match nothing. */
function translate(pattern: string): string | undefined {
  const characters = [...pattern];
  let out = '';
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
          out += '.*';
        } else {
          // `**/` at the start or `/**/` in the middle: zero or more whole directories.
          out += '(?:.*/)?';
          end++;
        }
      } else out += '[^/]*';
      index = end;
    } else if (character === '?') out += '[^/]';
    else if (character === '[') {
      const parsed = translateClass(characters, index);
      if (parsed === undefined) return undefined;
      out += parsed.source;
      index = parsed.end;
    } else if (character === '\\') {
      const next = characters[++index];
      if (next === undefined) return undefined;
      out += RE2JS.quote(next);
    } else out += RE2JS.quote(character);
  }
  return out;
}

// A bracket expression from `start` (the `[`): `!` or `^` negates, a `]` first is literal, `\`
// escapes, `a-z` ranges, `[:alpha:]` classes; it never matches `/`.
function translateClass(characters: readonly string[], start: number): { source: string; end: number } | undefined {
  let index = start + 1;
  let negated = false;
  if (characters[index] === '!' || characters[index] === '^') {
    negated = true;
    index++;
  }
  let body = '';
  let first = true;
  for (; index < characters.length; index++) {
    const character = characters[index]!;
    if (character === ']' && !first) return { source: negated ? `[^/${body}]` : `(?:[${body}])`, end: index };
    first = false;
    if (character === '\\') {
      const next = characters[++index];
      if (next === undefined) return undefined;
      body += escapeInClass(next);
    } else if (character === '[' && characters[index + 1] === ':') {
      const close = characters.indexOf(']', index + 2);
      const name = close === -1 ? '' : characters.slice(index + 2, close - 1).join('');
      if (close === -1 || characters[close - 1] !== ':' || !POSIX_CLASSES.has(name)) return undefined;
      body += `[:${name}:]`;
      index = close;
    } else if (character === '-' && body !== '' && characters[index + 1] !== ']' && characters[index + 1] !== undefined) body += '-';
    else body += escapeInClass(character);
  }
  return undefined;
}

function escapeInClass(character: string): string {
  return /[\\\]^[-]/u.test(character) ? `\\${character}` : character;
}

const POSIX_CLASSES = new Set(['alnum', 'alpha', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'xdigit']);
