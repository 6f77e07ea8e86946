import { pathSegments, type WorkspacePath } from '@libos/core';

/** A canonical path as the database holds it: its segments, and each as the bytes of its UTF-8. */
export interface PathNames {
  readonly path: WorkspacePath;
  readonly segments: readonly string[];
  readonly names: readonly Buffer[];
}

export function pathNames(path: WorkspacePath): PathNames {
  const segments = pathSegments(path);
  return { path, segments, names: segments.map((segment) => Buffer.from(segment, 'utf8')) };
}

/** The ancestor made of the first `depth` segments of `at` (the root for 0). */
export function prefixOf(at: PathNames, depth: number): WorkspacePath {
  return (depth <= 0 ? '.' : at.segments.slice(0, depth).join('/')) as WorkspacePath;
}
