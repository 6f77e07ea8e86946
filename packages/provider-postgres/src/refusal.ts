import { type LibosError, providerErrors, type Effect } from '@libos/core';
import { prefixOf, type PathNames } from './path-names.js';

/** What a change function (or a walk) answered: `ok`, or the refusal and how deep in the path it stands. */
export interface Outcome {
  readonly status: string;
  readonly depth: number;
  readonly detail?: string | null;
}

/** What a refusal needs beyond its status: the hash a guarded write expected, the quota numbers. */
export interface RefusalContext {
  readonly expectedSha256?: string | undefined;
  readonly expectedSizeBytes?: number | undefined;
  readonly writeBytes?: number;
  readonly maxBytes?: number;
  readonly effect?: Effect;
}

/**
 * Turns a status of the schema's functions into the error every provider gives for it, naming the
 * canonical path or the ancestor where resolution stopped.
 */
export function refusal(at: PathNames, outcome: Outcome, context: RefusalContext = {}): LibosError {
  const { path } = at;
  const options = context.effect === undefined ? {} : { effect: context.effect };
  const expected = context.expectedSha256 ?? 'missing';
  switch (outcome.status) {
    case 'root_gone':
      return providerErrors.rootGone(path, options);
    case 'not_found':
      return providerErrors.notFound(path, prefixOf(at, outcome.depth), options);
    case 'not_a_directory':
      return providerErrors.notADirectory(path, prefixOf(at, outcome.depth), options);
    case 'not_a_file':
      return providerErrors.notAFile(path, 'directory', options);
    case 'already_exists':
      return providerErrors.alreadyExists(path, options);
    case 'directory_not_empty':
      return providerErrors.directoryNotEmpty(path, options);
    case 'conflict_exists':
      return providerErrors.contentConflict(path, 'missing', undefined, options);
    case 'conflict_missing':
      return providerErrors.contentConflict(path, expected, null, options);
    case 'conflict':
      return providerErrors.contentConflict(path, expected, outcome.detail ?? null, options);
    case 'size_conflict':
      return providerErrors.sizeConflict(
        path,
        context.expectedSizeBytes ?? 0,
        outcome.detail === null || outcome.detail === undefined ? null : Number(outcome.detail),
        options,
      );
    case 'quota_exceeded':
      return providerErrors.quotaExceeded(path, Number(outcome.detail ?? 0), context.writeBytes ?? 0, context.maxBytes ?? 0, options);
    default:
      return providerErrors.failure(path, null, { effect: context.effect ?? 'none' });
  }
}

/**
 * Reads a walk (`reached` names found, the last one's kind) for a call that needs every name
 * before the last: the error when an ancestor is missing or not a directory, else undefined.
 */
export function ancestorRefusal(at: PathNames, reached: number, kind: string | null): LibosError | undefined {
  const count = at.segments.length;
  if (reached === -1) return providerErrors.rootGone(at.path);
  if (reached >= count) return undefined;
  if (kind !== 'd') return providerErrors.notADirectory(at.path, prefixOf(at, reached));
  if (reached < count - 1) return providerErrors.notFound(at.path, prefixOf(at, reached + 1));
  return undefined;
}
