// The PostgreSQL tests' cluster script, run as `pnpm test` runs it: from a clone in a folder only its
// owner may enter (0700), as root, which runs PostgreSQL as the package's postgres user. That user
// cannot enter the clone, so a command started there opened every `pnpm test` with a warning.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../postgres/throwaway-postgres.sh', import.meta.url));
const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
const canRun = process.getuid?.() === 0 && versions.some((version) => existsSync(`/usr/lib/postgresql/${version}/bin/initdb`));
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(!canRun)('throwaway-postgres.sh as root (needs PostgreSQL installed)', () => {
  it('runs a command from a 0700 folder with nothing on stderr about that folder', { timeout: 120_000 }, () => {
    const folder = mkdtempSync(join(tmpdir(), 'libos-private-clone-'));
    folders.push(folder);
    const run = spawnSync('bash', [script, 'run', 'sh', '-c', 'test -n "$LIBOS_TEST_DATABASE_URL" && pwd'], { cwd: folder, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    // The command itself still runs where it was started.
    expect(run.stdout.trim()).toBe(folder);
    expect(run.stderr).not.toMatch(/could not change directory|Permission denied/u);
  });
});
