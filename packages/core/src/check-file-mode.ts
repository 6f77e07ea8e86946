import { LibosError } from './libos-error.js';
import type { WorkspacePath } from './workspace-path.js';

/** The permission bits a `writeFile` `mode` may name: read, write and execute for owner, group and others. */
export const FILE_MODE_BITS = 0o777;

/**
 * Checks `writeFile`'s `mode` option before a provider touches anything: permission bits only, so a
 * setuid, setgid or sticky bit, a fraction or a negative number is `invalid_arguments`. Returns it.
 */
export function checkFileMode(mode: number | undefined, path: WorkspacePath): number | undefined {
  if (mode === undefined) return undefined;
  if (!Number.isInteger(mode) || mode < 0 || mode > FILE_MODE_BITS) {
    throw new LibosError('invalid_arguments', 'The mode of a written file must be permission bits, an integer from 0 to 0o777.', {
      details: { path, option: 'mode' },
    });
  }
  return mode;
}
