import { createInterface } from 'node:readline/promises';
import { escapeForDisplay } from '@libos/core';
import type { ShownOptions } from '@libos/provider-overlay';
import { UsageError } from '../usage-error.js';
import type { PersonOperations } from '../workspace/person-operations.js';

/** What a discard would drop: the agent's changes at or below the paths (all without paths). */
interface Loss {
  readonly changes: number;
  readonly files: number;
  readonly bytes: number;
  /** The set version of every change when counted: binds an all-paths discard to what was counted. */
  readonly setVersion: string | null;
}

/**
 * Asks before `libos discard` drops the agent's work, the person's only copy of it
 * (docs/overlay.md, "CLI"): in a terminal it says how much is lost and waits for y; `--yes`
 * skips; without a terminal and without `--yes` it refuses. Returns the versions to hold the
 * discard to (everything counted, when no path and no --shown was given), or null when declined.
 */
export async function confirmDiscard(
  operations: PersonOperations,
  paths: readonly string[],
  yes: boolean,
  shownGiven: boolean,
): Promise<ShownOptions | null> {
  if (yes) return {};
  if (process.stdin.isTTY !== true) {
    throw new UsageError("libos discard: it drops the agent's changes for good and there is no terminal to confirm in: add --yes");
  }
  const loss = await lossOf(operations, paths);
  if (loss.changes === 0) return {};
  const where = paths.length === 0 ? '' : ` at ${paths.map((path) => escapeForDisplay(path)).join(', ')}`;
  const question =
    `libos discard: this drops ${loss.changes} change${loss.changes === 1 ? '' : 's'} of the agent${where} ` +
    `(${loss.files} file${loss.files === 1 ? '' : 's'}, ${loss.bytes} bytes it wrote); no copy is kept. Discard? [y/N] `;
  const prompt = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    const answer = (await prompt.question(question)).trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') return null;
  } finally {
    prompt.close();
  }
  // What was counted is what goes: a change the agent made after the count stops the discard.
  return paths.length === 0 && !shownGiven && loss.setVersion !== null ? { shownSet: loss.setVersion } : {};
}

async function lossOf(operations: PersonOperations, paths: readonly string[]): Promise<Loss> {
  // As the discard reads its paths: relative to the root, `./` and a trailing `/` meaning nothing.
  const selected = paths.map((given) => given.replace(/^(?:\.?\/)+/u, '').replace(/\/+$/u, ''));
  const within = (path: string) =>
    selected.length === 0 || selected.some((given) => given === '' || given === '.' || path === given || path.startsWith(`${given}/`));
  let changes = 0;
  let files = 0;
  let bytes = 0;
  let setVersion: string | null = null;
  let cursor: string | undefined;
  do {
    const page = await operations.changes({ limit: 10_000, ...(cursor === undefined ? {} : { cursor }) });
    setVersion ??= page.set_version;
    for (const change of page.changes) {
      if (!within(change.path)) continue;
      changes++;
      if (change.current !== null) {
        files++;
        bytes += change.current.size_bytes;
      }
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return { changes, files, bytes, setVersion };
}
