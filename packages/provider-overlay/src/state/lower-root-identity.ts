import { realpathSync, statSync } from 'node:fs';
import { LibosError, escapeForDisplay } from '@libos/core';
import type Database from 'better-sqlite3';

/** Who opens a state: the agent's server (may create it and record its root) or a person's command. */
export type StateOpener = 'agent' | 'person';

interface RootIdentity {
  readonly dev: string;
  readonly ino: string;
  readonly path: string;
}

/**
 * Binds a state to the directory under it (docs/overlay.md, "The state"): the agent's server
 * records the root's identity (device and inode, and its real path for messages) when the state
 * has none; every later open must name the same directory, so a mistyped `--root` can never apply
 * the agent's files into an unrelated directory. A person's command never records: a state from
 * before roots were recorded is adopted by the agent's server only.
 */
export function bindLowerRoot(db: Database.Database, lowerRoot: string | undefined, opener: StateOpener): void {
  if (lowerRoot === undefined) return;
  const current = identityOf(lowerRoot);
  const recorded = db.prepare<[], RootIdentity>('SELECT dev, ino, path FROM lower_root WHERE only = 1').get();
  if (recorded === undefined) {
    if (opener === 'agent') {
      db.prepare('INSERT INTO lower_root (only, dev, ino, path) VALUES (1, ?, ?, ?)').run(current.dev, current.ino, current.path);
      return;
    }
    throw new LibosError(
      'invalid_arguments',
      "This overlay state records no root directory (it predates that record): start the agent's server on it once with its --root, which records it.",
      { details: { reason: 'state_root_unrecorded' } },
    );
  }
  if (recorded.dev !== current.dev || recorded.ino !== current.ino) {
    // Same path, another directory: naming the path again would be no help, so say what happened.
    const message =
      recorded.path === current.path
        ? `The directory at ${escapeForDisplay(current.path)} is not the one this overlay state belongs to (that one was moved, removed or replaced since): pass --root the directory the agent worked in.`
        : `This overlay state belongs to the root ${escapeForDisplay(recorded.path)}, not ${escapeForDisplay(current.path)}: pass --root ${escapeForDisplay(recorded.path)}.`;
    throw new LibosError('invalid_arguments', message, { details: { reason: 'state_root_mismatch' } });
  }
}

function identityOf(root: string): RootIdentity {
  let path: string;
  try {
    path = realpathSync(root);
  } catch (error) {
    throw new LibosError('invalid_arguments', `The overlay's root ${escapeForDisplay(root)} does not exist.`, {
      details: { reason: 'state_root_missing' },
      cause: error,
    });
  }
  const status = statSync(path, { bigint: true });
  return { dev: status.dev.toString(), ino: status.ino.toString(), path };
}
