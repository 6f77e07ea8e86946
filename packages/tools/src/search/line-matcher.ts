import { RE2JS } from 're2js';

/** Where a pattern first matches in one line: a UTF-16 index, or -1. */
export type LineMatcher = (line: string) => number;

/**
 * A literal query is found with indexOf when case matters; everything else goes through RE2JS, a
 * port of RE2 whose matching time is linear in the input, so no pattern can hang the call.
 * Returns undefined for a pattern RE2 rejects (backreferences, lookarounds, bad syntax).
 */
export function createLineMatcher(query: string, options: { readonly regex: boolean; readonly caseSensitive: boolean }): LineMatcher | undefined {
  if (!options.regex && options.caseSensitive) return (line) => line.indexOf(query);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(options.regex ? query : RE2JS.quote(query), options.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch {
    return undefined;
  }
  return (line) => {
    // test() runs on the DFA; the matcher, which finds the position, only for lines that match.
    if (!compiled.test(line)) return -1;
    const matcher = compiled.matcher(line);
    return matcher.find() ? matcher.start() : -1;
  };
}
