import { LibosError, mayHaveLookAlikes, type WorkspacePath } from '@libos/core';
import type { ToolContext } from '../tool-definition.js';
import { findRealPath } from './find-real-path.js';

/** What an operation on an existing entry gave, and the path it ran on. */
export interface AtRealPath<Value> {
  /** The path as it exists: the one given, or the entry whose name equals it after normalization. */
  readonly path: WorkspacePath;
  readonly value: Value;
}

/**
 * Runs `operation` on `path`, which names an entry that should exist; when it fails with
 * `not_found` (or `missed` says its result found nothing), looks the path up by names equal after
 * Unicode normalization (`findRealPath`) and, if that finds another spelling, runs it once more
 * there. The exact path costs nothing more; authority was decided before, on names up to that
 * equivalence, so it holds for the path found too.
 */
export async function atRealPath<Value>(
  context: ToolContext,
  path: WorkspacePath,
  operation: (path: WorkspacePath) => Promise<Value>,
  missed?: (value: Value) => boolean,
): Promise<AtRealPath<Value>> {
  let value: Value;
  try {
    value = await operation(path);
  } catch (error) {
    if (!LibosError.is(error, 'not_found') || !mayHaveLookAlikes(path)) throw error;
    const real = await lookUp(context, path, false);
    if (real === path) throw error;
    return { path: real, value: await operation(real) };
  }
  if (missed === undefined || !missed(value) || !mayHaveLookAlikes(path)) return { path, value };
  const real = await lookUp(context, path, false);
  return real === path ? { path, value } : { path: real, value: await operation(real) };
}

/**
 * The path a call that may create `path` (a file, a directory, a copy or move destination) works
 * on: missing parents spelled otherwise in the workspace are the existing ones, and a missing last
 * component whose name equals an existing entry's is refused (`already_exists`, no look-alike
 * twins). A name no other spelling can equal (most ASCII names) costs nothing; another costs one
 * stat when the path exists.
 */
export async function creationPath(context: ToolContext, path: WorkspacePath): Promise<WorkspacePath> {
  if (!mayHaveLookAlikes(path)) return path;
  // The common case, a file being replaced, is one stat; only a missing path is looked up by parts.
  const status = await context.provider.stat(path, context.signal === undefined ? {} : { signal: context.signal }).catch((error: unknown) => {
    // A missing parent is a missing path; any other refusal is the call's own to report.
    if (LibosError.is(error, 'not_found')) return { kind: 'missing' as const };
    if (LibosError.is(error) && error.code !== 'provider_failure') return undefined;
    throw error;
  });
  if (status === undefined || status.kind !== 'missing') return path;
  return lookUp(context, path, true);
}

function lookUp(context: ToolContext, path: WorkspacePath, creates: boolean): Promise<WorkspacePath> {
  return findRealPath(context.provider, path, { creates, listLimit: context.bounds.list_limit_max, signal: context.signal });
}
