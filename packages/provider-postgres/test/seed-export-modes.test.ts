import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BOUNDS, LibosError, type WorkspacePath } from '@libos/core';
import { expect, it, onTestFinished } from 'vitest';
import { backend } from '../src/backend.js';
import { exportWorkspace } from '@libos/provider-kit';
import { CHUNK_BYTES } from '../src/index.js';
import { SHARED_SCHEMA, describePostgres, freshWorkspace, postgresUrl, testPool, testProvider } from './postgres.js';

// P02: modes are kept both ways (a seed reads the host's, an export writes them, never wider).
// P03: a seed is all or nothing: one that fails midway leaves no workspace, and the next start seeds it whole.

const p = (path: string) => path as WorkspacePath;
const modeAt = (file: string) => (lstatSync(file).mode & 0o777).toString(8);
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function hostDirectory(): string {
  const made = mkdtempSync(join(tmpdir(), 'libos-seed-'));
  onTestFinished(() => rmSync(made, { recursive: true, force: true }));
  return made;
}

/** A seed of a 0600 key, a 0755 script, a 0640 file, a 0644 file and a 0600 file of two chunks. */
function modeSeed(): { seed: string; big: Uint8Array } {
  const seed = hostDirectory();
  mkdirSync(join(seed, 'bin'));
  mkdirSync(join(seed, '.ssh'));
  const big = new Uint8Array(CHUNK_BYTES + 4321).map((_, index) => index % 251);
  const files: Array<[string, string | Uint8Array, number]> = [
    ['.ssh/id_ed25519', 'PRIVATE KEY', 0o600],
    ['bin/run.sh', '#!/bin/sh\n', 0o755],
    ['group.txt', 'group', 0o640],
    ['plain.txt', 'plain', 0o644],
    ['bin/big.bin', big, 0o600],
  ];
  for (const [name, content, mode] of files) {
    writeFileSync(join(seed, name), content);
    chmodSync(join(seed, name), mode);
  }
  return { seed, big };
}

const MODES: Record<string, string> = {
  '.ssh/id_ed25519': '600',
  'bin/run.sh': '755',
  'group.txt': '640',
  'plain.txt': '644',
  'bin/big.bin': '600',
};

async function openThroughBackend(workspace: string, seed: string, maxBytes: number = DEFAULT_BOUNDS.workspace_max_bytes) {
  return backend.open({
    flags: { database: postgresUrl, workspace, seed },
    borrowWorkingDirectory: false,
    bounds: { ...DEFAULT_BOUNDS, workspace_max_bytes: maxBytes },
  });
}

describePostgres('modes through a seed and an export', () => {
  it('a seed keeps each file’s host mode, and an export writes it back, never wider', async () => {
    const { seed, big } = modeSeed();
    const opened = await openThroughBackend(freshWorkspace(), seed);
    onTestFinished(() => opened.close?.());
    for (const [file, mode] of Object.entries(MODES)) {
      expect({ file, mode: (await opened.provider.stat(p(file))).mode?.toString(8) }).toEqual({ file, mode });
    }
    const target = join(hostDirectory(), 'out');
    expect(await exportWorkspace(opened.provider, target)).toMatchObject({ files: 5, directories: 2 });
    for (const [file, mode] of Object.entries(MODES)) expect({ file, mode: modeAt(join(target, file)) }).toEqual({ file, mode });
    expect(sha(readFileSync(join(target, 'bin/big.bin')))).toBe(sha(big));
  });

  it('an export gives a file written with mode 0600 exactly 0600, and a 0664 one 0664 whatever the umask', async () => {
    const provider = testProvider();
    await provider.writeFile(p('secret'), new TextEncoder().encode('s'), { overwrite: false, mode: 0o600 });
    await provider.writeFile(p('shared'), new TextEncoder().encode('s'), { overwrite: false, mode: 0o664 });
    await provider.writeFile(p('default'), new TextEncoder().encode('d'), { overwrite: false });
    const target = join(hostDirectory(), 'out');
    await exportWorkspace(provider, target);
    expect([modeAt(join(target, 'secret')), modeAt(join(target, 'shared')), modeAt(join(target, 'default'))]).toEqual(['600', '664', '644']);
  });
});

describePostgres('a seed is all or nothing', () => {
  it('a seed past the quota midway leaves no workspace; the next start (with room) seeds it whole', async () => {
    const { seed } = modeSeed();
    const workspace = freshWorkspace();
    // Room for the small files, not for the two-chunk one: some files land before the refusal.
    const refused = await openThroughBackend(workspace, seed, 1000).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toMatch(/^--seed .*bin\/big\.bin/);
    const cause = refused?.cause;
    expect(LibosError.is(cause) && cause.details).toMatchObject({ reason: 'seed_failed', seed_path: 'bin/big.bin', seed_code: 'quota_exceeded' });
    const pool = testPool(1);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM libos_fs.workspaces WHERE name = $1', [workspace]);
    expect(rows[0]).toEqual({ n: 0 });
    const opened = await openThroughBackend(workspace, seed);
    onTestFinished(() => opened.close?.());
    const listing = await opened.provider.listDirectory(p('.'), { limit: 10 });
    expect(listing.entries.map((entry) => entry.name)).toEqual(['.ssh', 'bin', 'group.txt', 'plain.txt']);
    expect((await opened.provider.listDirectory(p('bin'), { limit: 10 })).entries.map((entry) => entry.name)).toEqual(['big.bin', 'run.sh']);
  });

  it('a connection lost midway through the seed (an injected failure) rolls the whole seed back', async () => {
    const seed = hostDirectory();
    for (let index = 0; index < 20; index++) writeFileSync(join(seed, `f${String(index).padStart(2, '0')}`), `file ${index}`);
    const workspace = freshWorkspace();
    const pool = testPool(2);
    // The 8th file's write meets a connection reset, after seven have landed in the transaction.
    const connect = pool.connect.bind(pool);
    let writes = 0;
    pool.connect = (async () => {
      const client = await connect();
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      client.query = ((...args: unknown[]) => {
        if (typeof args[0] === 'string' && args[0].includes('write_file(') && ++writes === 8) {
          return Promise.reject(Object.assign(new Error('injected: connection reset'), { code: 'ECONNRESET' }));
        }
        return query(...args);
      }) as typeof client.query;
      return client;
    }) as typeof pool.connect;
    const failing = testProvider({ workspace, seed, pool });
    const error = await failing.open().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(writes).toBe(8);
    expect(LibosError.is(error) && error.details).toMatchObject({ reason: 'seed_failed', seed_code: null, host_code: 'ECONNRESET' });
    expect(LibosError.is(error) && error.effect).toBe('none');
    const { rows } = await testPool(1).query(`SELECT count(*)::int AS n FROM ${SHARED_SCHEMA}.workspaces WHERE name = $1`, [workspace]);
    expect(rows[0]).toEqual({ n: 0 });
    // The next start (a healthy connection) creates the workspace and copies the whole seed.
    const next = testProvider({ workspace, seed });
    expect(await next.open()).toEqual({ created: true });
    expect((await next.listDirectory(p('.'), { limit: 100 })).entries).toHaveLength(20);
    expect(new TextDecoder().decode((await next.readFile(p('f19'), { maxBytes: 100 })).bytes)).toBe('file 19');
  });
});
