import { LibosError, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import { decodeStatePath } from './state-path.js';

/**
 * What a row's `mode_of` says about its file's mode (docs/overlay.md, "Modes"): null, its own lower
 * file's; '', a new file's default; a canonical path, that lower file's; `/` and octal digits, those
 * permission bits, given to `writeFile` (no canonical path starts with `/`, so the two never meet).
 */
export type ModeOf =
  | { readonly kind: 'own' }
  | { readonly kind: 'default' }
  | { readonly kind: 'lower'; readonly path: WorkspacePath }
  | { readonly kind: 'explicit'; readonly mode: number };

/** The `mode_of` value naming permission bits given by the caller. */
export function explicitModeOf(mode: number): string {
  return `/${mode.toString(8)}`;
}

/** Reads a row's `mode_of`; a path no libOS call could have stored there is refused (`state-path.ts`). */
export function readModeOf(value: string | null | undefined): ModeOf {
  if (value === null || value === undefined) return { kind: 'own' };
  if (value === '') return { kind: 'default' };
  if (value.startsWith('/')) return { kind: 'explicit', mode: Number.parseInt(value.slice(1), 8) };
  return { kind: 'lower', path: decodeStatePath(value) };
}

/** Owner-only: what an apply gives a file whose source's mode can no longer be read (never wider than it was). */
export const UNKNOWN_SOURCE_MODE = 0o600;

/**
 * The permission bits an apply writes a row's file with, read before any step runs (a move's source
 * is still on disk then): undefined keeps the lower's own choice (the file's mode, or a new file's
 * default); a source that is no longer a readable file gets owner-only bits.
 */
export async function modeToApply(lower: FileSystemProviderV1, modeOf: string | null | undefined): Promise<number | undefined> {
  try {
    const named = readModeOf(modeOf);
    if (named.kind === 'explicit') return named.mode;
    if (named.kind !== 'lower') return undefined;
    const status = await lower.stat(named.path);
    if (status.kind === 'file') return status.mode ?? undefined;
    return UNKNOWN_SOURCE_MODE;
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    return UNKNOWN_SOURCE_MODE;
  }
}
