import { RE2JS } from 're2js';

/** A compiled file-name filter: `matches(relativePath)` for a path relative to the search root. */
export interface GlobFilter {
  matches(relativePath: string): boolean;
}

/**
 * Compiles a glob into an RE2 pattern, so matching is linear in the name however the glob is
 * written (`*a*a*a*b` cannot backtrack). `*` and `?` stay within one path segment, `[...]` is a
 * character class (`[!...]` or `[^...]` negated), `**` spans directories, `\` escapes the next
 * character. A glob without `/` is matched against the file's own name at any depth, one with `/`
 * against its whole path below the search root. Returns undefined for a malformed glob.
 */
export function compileGlob(glob: string): GlobFilter | undefined {
  let pattern = '';
  const characters = [...glob];
  for (let index = 0; index < characters.length; index++) {
    const character = characters[index]!;
    if (character === '*') {
      if (characters[index + 1] === '*') {
        index++;
        if (characters[index + 1] === '/') {
          index++;
          pattern += '(?:.*/)?';
        } else pattern += '.*';
      } else pattern += '[^/]*';
    } else if (character === '?') pattern += '[^/]';
    else if (character === '[') {
      const close = characters.indexOf(']', index + 2);
      if (close === -1) return undefined;
      let body = characters.slice(index + 1, close);
      const negated = body[0] === '!' || body[0] === '^';
      if (negated) body = body.slice(1);
      if (body.length === 0) return undefined;
      // Inside a class only `\`, `]`, `[` and `^` mean anything to RE2; a `-` between two characters is a range.
      const escaped = body.map((item) => (/[\\\][^]/u.test(item) ? `\\${item}` : item)).join('');
      pattern += `[${negated ? '^/' : ''}${escaped}]`;
      index = close;
    } else if (character === '\\') {
      const next = characters[++index];
      if (next === undefined) return undefined;
      pattern += RE2JS.quote(next);
    } else pattern += RE2JS.quote(character);
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(`^${pattern}$`, RE2JS.DOTALL);
  } catch {
    return undefined;
  }
  const nameOnly = !glob.includes('/');
  return {
    matches(relativePath) {
      return compiled.test(nameOnly ? relativePath.slice(relativePath.lastIndexOf('/') + 1) : relativePath);
    },
  };
}
