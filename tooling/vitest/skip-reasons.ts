/** A skipped test as the summary sees it: its note (from `context.skip(note)`), its suite names and its file. */
export interface SkippedTest {
  readonly note: string | undefined;
  readonly suites: readonly string[];
  readonly name: string;
  readonly file: string;
}

const CAPABILITY = /does not declare capabilities\.(\w+)|has no (\w+) method|does not provide (.+)$/;
const SUITE_REASON = /\(skipped: ([^)]+)\)/;

/**
 * Why a test was skipped, as one category: the conformance kits' capability cases by what the subject
 * lacks (they are most of the skips and expected), a suite that names its reason, the note a test gave,
 * or else the file and suite of a `skipIf` that gave none.
 */
export function skipCategory(test: SkippedTest): { readonly category: string; readonly detail?: string } {
  const note = test.note?.trim() ?? '';
  const capability = note.match(CAPABILITY);
  if (capability !== null) {
    const lacked = capability[1] ?? (capability[2] === undefined ? `fixture ${capability[3]}` : `${capability[2]}()`);
    return { category: 'capability cases, a provider or store lacks what the case needs', detail: lacked };
  }
  if (note.startsWith('skipped by options.skip')) return { category: 'conformance cases a subject opts out of (options.skip)' };
  if (note !== '') return { category: note };
  for (const suite of test.suites) {
    const reason = suite.match(SUITE_REASON)?.[1];
    if (reason !== undefined) return { category: reason };
  }
  const where = test.suites[0] ?? test.name;
  return { category: `${test.file}: ${where}` };
}

/** Lines that say what the skips were, most frequent first: "N <category> (detail N, detail N)". */
export function describeSkips(tests: readonly SkippedTest[]): string[] {
  const categories = new Map<string, { count: number; details: Map<string, number> }>();
  for (const test of tests) {
    const { category, detail } = skipCategory(test);
    const entry = categories.get(category) ?? { count: 0, details: new Map<string, number>() };
    entry.count++;
    if (detail !== undefined) entry.details.set(detail, (entry.details.get(detail) ?? 0) + 1);
    categories.set(category, entry);
  }
  return [...categories]
    .sort(([leftName, left], [rightName, right]) => right.count - left.count || (leftName < rightName ? -1 : 1))
    .map(([category, { count, details }]) => {
      const parts = [...details].sort(([, left], [, right]) => right - left).map(([detail, times]) => `${detail} ${times}`);
      return `  ${count} ${category}${parts.length === 0 ? '' : ` (${parts.join(', ')})`}`;
    });
}
