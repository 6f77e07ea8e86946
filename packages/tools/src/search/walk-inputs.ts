import { LibosError } from '@libos/core';
import { z } from 'zod';
import { boundedIntegerField } from '../tools/tool-fields.js';
import type { GlobFilter } from './compile-glob.js';

/** The longest `query`, `glob` or `exclude` glob, in UTF-16 units: enough for any real pattern, and a bound on the cost of one match. */
export const PATTERN_MAX_LENGTH = 4096;
/** The most `exclude` globs of one call. */
export const EXCLUDE_MAX_COUNT = 100;
export const DEADLINE_DEFAULT_MS = 10_000;
export const DEADLINE_MAX_MS = 60_000;

/** What ended a walk early; null when it was complete. */
export type WalkStop = 'max_results' | 'max_files' | 'result_bytes' | 'deadline';

/** The inputs `search_files` and `find_files` share: which rules to apply and how long to walk. */
export const walkInputFields = {
  respect_gitignore: z
    .boolean()
    .default(true)
    .describe('Skip what the .gitignore files of the walk and of its ancestors ignore, with git’s rules (default true).'),
  exclude: z
    .array(z.string().min(1).max(PATTERN_MAX_LENGTH))
    .max(EXCLUDE_MAX_COUNT)
    .optional()
    .describe('Globs (the syntax of glob, relative to path) of files and whole directories to skip, e.g. ["node_modules", "*.min.js"].'),
  deadline_ms: boundedIntegerField(
    DEADLINE_DEFAULT_MS,
    DEADLINE_MAX_MS,
    `Wall-clock milliseconds the walk may take (default ${DEADLINE_DEFAULT_MS}, at most ${DEADLINE_MAX_MS}); at the deadline it answers with what it found, stopped "deadline".`,
  ),
};

/** The output fields both tools share. */
export const walkOutputFields = {
  skipped_ignored: z.number().int().min(0).describe('Files and directories skipped by .gitignore rules or exclude.'),
  stopped: z
    .enum(['max_results', 'max_files', 'result_bytes', 'deadline'])
    .nullable()
    .describe('What ended the walk early, or null when it was complete; set, the result cannot be read as "nothing more exists".'),
};

/** The glob filters of a walk: the `glob` wanted (every file without one) and the `exclude` globs. */
export async function compileWalkFilters(
  tool: string,
  glob: string | undefined,
  exclude: readonly string[] | undefined,
): Promise<{ wanted: GlobFilter | undefined; excluded: readonly GlobFilter[] }> {
  const { compileGlob } = await import('./compile-glob.js');
  const wanted = glob === undefined ? undefined : compileGlob(glob);
  if (wanted === undefined && glob !== undefined) throw invalidPattern(tool, 'glob', 'is not a valid glob');
  const excluded = (exclude ?? []).map((item, index) => {
    const compiled = compileGlob(item);
    if (compiled === undefined) throw invalidPattern(tool, `exclude.${index}`, 'is not a valid glob');
    return compiled;
  });
  return { wanted, excluded };
}

/** The `invalid_arguments` of a pattern the walk cannot use. */
export function invalidPattern(tool: string, field: string, problem: string): LibosError {
  return new LibosError('invalid_arguments', `Invalid arguments for ${tool}: ${field} ${problem}.`, {
    details: { issues: [{ path: field, code: 'invalid_pattern', message: `${field}: ${problem}` }] },
  });
}
