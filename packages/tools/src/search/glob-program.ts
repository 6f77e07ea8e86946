/** What one code point of a path must be: a literal, anything but `/`, or a bracket class. */
export type CodeTest = number | 'not_slash' | CodeClass;

/** A bracket class: code point ranges (inclusive pairs) and POSIX classes, maybe negated (a negated class never matches `/`). */
export interface CodeClass {
  readonly negated: boolean;
  readonly ranges: readonly number[];
  readonly posix: readonly string[];
}

/** One step of a glob: one code point, a run of them (`*` within a component, `**` across), or `**​/` (zero or more whole directories). */
export type GlobToken =
  | { readonly kind: 'one'; readonly test: CodeTest }
  | { readonly kind: 'any'; readonly crossesSlash: boolean }
  | { readonly kind: 'directories' };

/** A compiled glob; `test` decides whether the code points of `codes` from `start` to the end match it whole. */
export interface GlobProgram {
  test(codes: ArrayLike<number>, start: number): boolean;
}

const SLASH = 0x2f;
const ONE = 0;
const ANY = 1;
// Consumes nothing: the entry of `**​/`, which goes on into the run or skips the run and its slash.
const GATE = 2;

/**
 * Compiles tokens into a state machine run without backtracking: the set of states alive after
 * each code point, each state visited at most once per code point. A test therefore costs at most
 * the path's length times the glob's length, whatever the glob holds (RE2's programs have the same
 * bound but a constant that made a crafted `.gitignore` cost seconds per path; here it is a few
 * array reads), and a caller that bounds both bounds the work of one test.
 */
export function compileGlobProgram(tokens: readonly GlobToken[]): GlobProgram {
  const kinds: number[] = [];
  const tests: (CodeTest | undefined)[] = [];
  const crosses: boolean[] = [];
  const skips: boolean[] = [];
  for (const token of tokens) {
    if (token.kind === 'one') push(ONE, token.test, false, false);
    else if (token.kind === 'any') push(ANY, undefined, token.crossesSlash, false);
    else {
      // `(?:.*/)?`: skip the run and its slash, or anything then a slash.
      push(GATE, undefined, false, true);
      push(ANY, undefined, true, false);
      push(ONE, SLASH, false, false);
    }
  }
  function push(kind: number, test: CodeTest | undefined, crossesSlash: boolean, skip: boolean) {
    kinds.push(kind);
    tests.push(test);
    crosses.push(crossesSlash);
    skips.push(skip);
  }
  const size = kinds.length;
  // A path matches only if its last code point is the glob's last literal, when it ends in one
  // (`*.log`, `node_modules`): most paths are turned away by this one comparison.
  const lastToken = tokens[tokens.length - 1];
  const lastCode = lastToken?.kind === 'one' && typeof lastToken.test === 'number' ? lastToken.test : -1;
  let current = new Uint8Array(size + 1);
  let next = new Uint8Array(size + 1);
  // Every epsilon move goes forward (a run may be empty, `**​/` may be skipped), so one ascending
  // pass from the lowest state set closes a set; returns the highest state set.
  const close = (states: Uint8Array, from: number, until: number): number => {
    let last = until;
    for (let state = from; state <= last && state < size; state++) {
      if (states[state] === 0) continue;
      if (kinds[state] !== ONE) {
        states[state + 1] = 1;
        if (state + 1 > last) last = state + 1;
      }
      if (skips[state]) {
        states[state + 3] = 1;
        if (state + 3 > last) last = state + 3;
      }
    }
    return last;
  };
  return {
    test(codes, start) {
      if (lastCode !== -1 && (codes.length <= start || codes[codes.length - 1] !== lastCode)) return false;
      // Both sets are all zero here: every pass clears what it set before it returns.
      current[0] = 1;
      let low = 0;
      let high = close(current, 0, 0);
      for (let at = start; at < codes.length; at++) {
        const code = codes[at]!;
        let nextLow = -1;
        let nextHigh = -1;
        for (let state = low; state <= high && state < size; state++) {
          if (current[state] === 0) continue;
          let reached = -1;
          const kind = kinds[state];
          if (kind === ANY) {
            if (crosses[state] || code !== SLASH) reached = state;
          } else if (kind === ONE && matchesCode(tests[state]!, code)) reached = state + 1;
          if (reached === -1) continue;
          next[reached] = 1;
          if (nextLow === -1) nextLow = reached;
          if (reached > nextHigh) nextHigh = reached;
        }
        current.fill(0, low, high + 1);
        if (nextLow === -1) return false;
        [current, next] = [next, current];
        low = nextLow;
        high = close(current, nextLow, nextHigh);
      }
      const matched = current[size] === 1;
      current.fill(0, low, high + 1);
      return matched;
    },
  };
}

/** The code points of `text`, for `GlobProgram.test`. */
export function codePointsOf(text: string): Int32Array {
  const codes = new Int32Array(text.length);
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.codePointAt(index)!;
    if (code > 0xffff) index++;
    codes[count++] = code;
  }
  return codes.subarray(0, count);
}

function matchesCode(test: CodeTest, code: number): boolean {
  if (typeof test === 'number') return test === code;
  if (test === 'not_slash') return code !== SLASH;
  if (test.negated && code === SLASH) return false;
  let inside = false;
  for (let index = 0; index < test.ranges.length && !inside; index += 2) inside = code >= test.ranges[index]! && code <= test.ranges[index + 1]!;
  for (let index = 0; index < test.posix.length && !inside; index++) inside = inPosixClass(test.posix[index]!, code);
  return inside !== test.negated;
}

// RE2's POSIX classes, which are ASCII only.
function inPosixClass(name: string, code: number): boolean {
  const upper = code >= 0x41 && code <= 0x5a;
  const lower = code >= 0x61 && code <= 0x7a;
  const digit = code >= 0x30 && code <= 0x39;
  const punct = (code >= 0x21 && code <= 0x2f) || (code >= 0x3a && code <= 0x40) || (code >= 0x5b && code <= 0x60) || (code >= 0x7b && code <= 0x7e);
  switch (name) {
    case 'alnum':
      return upper || lower || digit;
    case 'alpha':
      return upper || lower;
    case 'blank':
      return code === 0x20 || code === 0x09;
    case 'cntrl':
      return code < 0x20 || code === 0x7f;
    case 'digit':
      return digit;
    case 'graph':
      return code >= 0x21 && code <= 0x7e;
    case 'lower':
      return lower;
    case 'print':
      return code >= 0x20 && code <= 0x7e;
    case 'punct':
      return punct;
    case 'space':
      return code === 0x20 || (code >= 0x09 && code <= 0x0d);
    case 'upper':
      return upper;
    case 'xdigit':
      return digit || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
    default:
      return false;
  }
}

/** The POSIX class names a bracket expression may hold (`[:alpha:]`). */
export const POSIX_CLASSES: ReadonlySet<string> = new Set([
  'alnum',
  'alpha',
  'blank',
  'cntrl',
  'digit',
  'graph',
  'lower',
  'print',
  'punct',
  'space',
  'upper',
  'xdigit',
]);
