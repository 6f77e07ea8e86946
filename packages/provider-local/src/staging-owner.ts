import { lstatSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { LibosError } from '@libos/core';
import { hostCode } from './map-node-error.js';
import { STAGING_NAME } from './reserved-names.js';

/**
 * Refuses a staging directory this process cannot trust: in a world-writable root another user can
 * make `.libos-staging` first (a directory they own, one with group or other bits, or a link), and
 * then read, swap or block every temporary. `at` names the entry through the pinned root; `hostRoot`
 * is the root as configured, for the message. A missing directory is fine: the first write makes it 0700.
 */
export function refuseForeignStaging(at: string, hostRoot: string): void {
  let status: Stats;
  try {
    status = lstatSync(at);
  } catch (error) {
    if (hostCode(error) === 'ENOENT') return;
    throw foreignStaging(hostRoot, `it cannot be inspected (${hostCode(error) ?? 'unknown error'})`, {});
  }
  checkStagingStatus(status, hostRoot);
}

/** The same refusal for a status already taken (`fstat` of the opened directory, or `lstat` of its name). */
export function checkStagingStatus(status: Stats, hostRoot: string): void {
  const uid = process.geteuid?.();
  if (!status.isDirectory()) throw foreignStaging(hostRoot, 'it is not a directory (a link or a file)', {});
  if (uid !== undefined && status.uid !== uid) {
    throw foreignStaging(hostRoot, `it belongs to uid ${status.uid}, not to this process (uid ${uid})`, { owner_uid: status.uid });
  }
  if ((status.mode & 0o077) !== 0) {
    throw foreignStaging(hostRoot, `its mode is ${(status.mode & 0o7777).toString(8)}, not owner-only (700)`, {
      mode: (status.mode & 0o7777).toString(8),
    });
  }
}

function foreignStaging(hostRoot: string, why: string, details: Record<string, string | number>): LibosError {
  const directory = `${hostRoot.endsWith('/') ? hostRoot : `${hostRoot}/`}${STAGING_NAME}`;
  return new LibosError(
    'provider_failure',
    `The staging directory ${directory} cannot be trusted: ${why}. Remove it (the provider makes its own, owner-only), or use a workspace root that other users cannot write to.`,
    { effect: 'none', details: { path: STAGING_NAME, host_path: directory, ...details } },
  );
}
