import type { LibosError } from '@libos/core';
import { describeValue, sha256Hex } from '../case-context.js';
import { OLD_CONTENT, type OperationName } from './operations.js';
import type { PreconditionNames } from './preconditions.js';

/** The `expectedSha256` each hash-guarded operation of the table passes. */
const expectedHashes: Partial<Record<OperationName, string>> = {
  'writeFile expectedSha256:missing': 'missing',
  'writeFile overwrite:false expectedSha256:missing': 'missing',
  'writeFile expectedSha256 of the old bytes': sha256Hex(OLD_CONTENT),
  'writeFile expectedSha256 of other bytes': sha256Hex('other'),
  'writeFile overwrite:false expectedSha256 of other bytes': sha256Hex('other'),
};

/** What a refusal of the error table is checked against beyond its code. */
export interface RefusalFacts {
  readonly operation: OperationName;
  /** The path the operation was called with. */
  readonly path: string;
  readonly names: PreconditionNames;
  /** The bytes of a regular file at `path` before the call, or null when none was there. */
  readonly before: Uint8Array | null;
}

/**
 * Says how a refusal's `details` values differ from what the state decides, or undefined: keys
 * alone would let a `not_found` name no missing ancestor, or the wrong one, pass.
 */
export function detailValuesDrift(error: LibosError, facts: RefusalFacts): string | undefined {
  const details = error.details ?? {};
  const differs = (what: string, got: unknown, wanted: unknown) =>
    got === wanted
      ? undefined
      : `The ${error.code} error's ${what} is ${describeValue(got)}, not ${describeValue(wanted)} (details: ${describeValue(details)}).`;
  const { names } = facts;
  switch (error.code) {
    case 'not_found':
      // `missing` names the first missing ancestor; absent, it is the path itself.
      return names.missing === undefined ? undefined : differs('missing component', details.missing ?? details.path, names.missing);
    case 'not_a_directory':
      return names.component === undefined ? undefined : differs('non-directory component', details.component ?? details.path, names.component);
    case 'not_a_file':
      return names.kind === undefined ? undefined : differs('kind', details.kind, names.kind);
    case 'symlink_refused':
      return names.link === undefined ? undefined : differs('link', details.link, names.link);
    case 'hard_link_refused':
      return Number.isInteger(details.links) && (details.links as number) >= 2
        ? undefined
        : `The hard_link_refused error's links is ${describeValue(details.links)}, not a count of two or more names.`;
    case 'content_conflict': {
      const expected = expectedHashes[facts.operation];
      if (expected === undefined) return undefined;
      const wrongExpected = differs('expected_sha256', details.expected_sha256, expected);
      if (wrongExpected !== undefined) return wrongExpected;
      // A hash was expected: the answer says what is there instead (null for no file). For
      // `missing`, the hash of the file found is optional, but right when given.
      const actual = facts.before === null ? null : sha256Hex(facts.before);
      if (expected !== 'missing') return differs('actual_sha256', details.actual_sha256, actual);
      return details.actual_sha256 === undefined ? undefined : differs('actual_sha256', details.actual_sha256, actual);
    }
    default:
      return undefined;
  }
}
