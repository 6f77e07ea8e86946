// Where better-sqlite3 is not installed (it is an optional peer), opening an overlay fails with
// the sentence that says to install it, and leaves nothing behind: no empty state file that a
// later start, or a person's command, would take for a state.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const children = fileURLToPath(new URL('./children/', import.meta.url));
const bases: string[] = [];
afterEach(() => {
  for (const base of bases.splice(0)) rmSync(base, { recursive: true, force: true });
});

describe('an overlay without better-sqlite3', () => {
  it('is refused with the install sentence and creates no state file', () => {
    const base = mkdtempSync(join(tmpdir(), 'libos-no-sqlite-'));
    bases.push(base);
    const root = join(base, 'project');
    mkdirSync(root);
    const state = join(base, 'review.overlay');
    const run = spawnSync(
      process.execPath,
      ['--require', join(children, 'open-without-sqlite.cjs'), join(children, 'open-without-sqlite.mjs'), root, state],
      { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) },
    );
    expect(run.status, run.stderr).toBe(0);
    const outcome = JSON.parse(run.stdout) as { code?: string; message?: string };
    expect(outcome.code).toBe('provider_failure');
    expect(outcome.message).toContain('npm i better-sqlite3');
    expect(existsSync(state)).toBe(false);
  });
});
