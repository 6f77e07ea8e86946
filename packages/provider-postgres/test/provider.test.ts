import { LibosError, type WorkspacePath } from '@libos/core';
import pg from 'pg';
import { expect, it } from 'vitest';
import { CHUNK_BYTES, createPostgresProvider } from '../src/index.js';
import { postgresFixtures } from './fixtures.js';
import { SHARED_SCHEMA, describePostgres, freshSchema, freshWorkspace, postgresUrl, testPool, testProvider } from './postgres.js';

const p = (path: string) => path as WorkspacePath;
const bytesOf = (text: string) => new TextEncoder().encode(text);

async function failure(call: Promise<unknown>): Promise<LibosError> {
  try {
    await call;
  } catch (error) {
    if (LibosError.is(error)) return error;
    throw error;
  }
  throw new Error('The call succeeded.');
}

describePostgres('the postgres provider', () => {
  it('refuses a write past workspaceMaxBytes with quota_exceeded and changes nothing, but lets a file shrink', async () => {
    const provider = testProvider({ workspaceMaxBytes: 100 });
    await provider.writeFile(p('a'), new Uint8Array(60), { overwrite: true });
    const error = await failure(provider.writeFile(p('d/b'), new Uint8Array(41), { overwrite: true }));
    expect(error).toMatchObject({
      code: 'quota_exceeded',
      effect: 'none',
      details: { path: 'd/b', used_bytes: 60, write_bytes: 41, max_bytes: 100 },
    });
    expect((await provider.stat(p('d'))).kind).toBe('missing');
    // Replacing a file counts only what it adds.
    await provider.writeFile(p('a'), new Uint8Array(100), { overwrite: true });
    await provider.writeFile(p('a'), new Uint8Array(10), { overwrite: true });
    await provider.writeFile(p('b'), new Uint8Array(90), { overwrite: true });
    // Deletes, recursive deletes and replacing renames give the bytes back.
    await provider.deleteFile(p('b'), { missingOk: false });
    await provider.writeFile(p('t/x'), new Uint8Array(45), { overwrite: true });
    await provider.writeFile(p('t/y'), new Uint8Array(45), { overwrite: true });
    await provider.deleteDirectory(p('t'), { recursive: true, missingOk: false });
    await provider.writeFile(p('c'), new Uint8Array(45), { overwrite: true });
    await provider.writeFile(p('e'), new Uint8Array(45), { overwrite: true });
    await provider.rename(p('c'), p('e'), { overwrite: true });
    expect(await provider.writeFile(p('f'), new Uint8Array(45), { overwrite: true })).toEqual({ created: true });
  });

  it('reads any prefix of a file of several chunks exactly', async () => {
    const provider = testProvider();
    const size = 2 * CHUNK_BYTES + 12345;
    const bytes = new Uint8Array(size);
    for (let index = 0; index < size; index++) bytes[index] = (index * 7 + (index >> 20)) & 0xff;
    await provider.writeFile(p('big'), bytes, { overwrite: false });
    for (const maxBytes of [1, 1000, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 2 * CHUNK_BYTES, size - 1, size, size + 1]) {
      const read = await provider.readFile(p('big'), { maxBytes });
      expect(read.truncated, String(maxBytes)).toBe(maxBytes < size);
      expect(Buffer.from(read.bytes).equals(Buffer.from(bytes.subarray(0, Math.min(maxBytes, size)))), String(maxBytes)).toBe(true);
    }
    expect(await provider.stat(p('big'))).toMatchObject({ kind: 'file', sizeBytes: size });
    // A guarded replace of a multi-chunk file checks the hash of all of it.
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(bytes).digest('hex');
    await provider.writeFile(p('big'), bytesOf('small'), { overwrite: true, expectedSha256: sha });
    expect(Buffer.from((await provider.readFile(p('big'), { maxBytes: 100 })).bytes).toString()).toBe('small');
  });

  it('keeps workspaces of one schema apart', async () => {
    const pool = testPool();
    const first = testProvider({ pool, workspace: freshWorkspace() });
    const second = testProvider({ pool, workspace: freshWorkspace() });
    await first.writeFile(p('d/f'), bytesOf('first'), { overwrite: false });
    expect((await second.stat(p('d'))).kind).toBe('missing');
    await second.writeFile(p('d/f'), bytesOf('second'), { overwrite: false });
    await second.deleteDirectory(p('d'), { recursive: true, missingOk: false });
    expect(Buffer.from((await first.readFile(p('d/f'), { maxBytes: 10 })).bytes).toString()).toBe('first');
  });

  it('says which call created the workspace, and a second host finds it', async () => {
    const workspace = freshWorkspace();
    const one = testProvider({ workspace });
    const two = testProvider({ workspace });
    const opened = await Promise.all([one.open(), two.open()]);
    expect(opened.map((result) => result.created).sort()).toEqual([false, true]);
    await one.writeFile(p('shared'), bytesOf('x'), { overwrite: false });
    expect((await two.stat(p('shared'))).kind).toBe('file');
  });

  it('refuses a schema newer than it knows, changing nothing', async () => {
    const schema = freshSchema();
    const provider = testProvider({ schema });
    await provider.open();
    const pool = testPool(1);
    await pool.query(`INSERT INTO "${schema}".schema_migrations (version, description) VALUES (99, 'from the future')`);
    const later = testProvider({ schema, workspace: freshWorkspace() });
    const error = await failure(later.stat(p('.')));
    expect(error.code).toBe('provider_failure');
    expect(error.effect).toBe('none');
    expect(error.message).toContain('newer than this package knows');
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".workspaces`);
    expect(rows[0].n).toBe(1);
  });

  it('refuses bad options with invalid_arguments', () => {
    const url = postgresUrl;
    const bad = [
      () => createPostgresProvider({ workspace: 'w' }),
      () => createPostgresProvider({ connectionString: url, pool: new pg.Pool(), workspace: 'w' }),
      () => createPostgresProvider({ connectionString: url, workspace: '' }),
      () => createPostgresProvider({ connectionString: url, workspace: 'a\0b' }),
      () => createPostgresProvider({ connectionString: url, workspace: 'x'.repeat(256) }),
      () => createPostgresProvider({ connectionString: url, workspace: 'w', schema: 'Bad"; DROP' }),
      () => createPostgresProvider({ connectionString: url, workspace: 'w', workspaceMaxBytes: -1 }),
    ];
    for (const make of bad) expect(make).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
  });

  it('lists a directory in code-point order, also past the Basic Multilingual Plane', async () => {
    const provider = testProvider();
    // UTF-16 order puts U+FFFD after U+1F600; code-point order puts it before.
    const names = ['\u{1F600}', '\uFFFD', 'Z', 'a', '\u00e9'];
    for (const name of names) await provider.writeFile(p(`d/${name}`), bytesOf(name), { overwrite: false });
    const listing = await provider.listDirectory(p('d'), { limit: 3 });
    expect(listing.entries.map((entry) => entry.name)).toEqual(['Z', 'a', '\u00e9']);
    expect(listing.truncated).toBe(true);
    const all = await provider.listDirectory(p('d'), { limit: 10 });
    expect(all.entries.map((entry) => entry.name)).toEqual(['Z', 'a', '\u00e9', '\uFFFD', '\u{1F600}']);
  });

  it('the fixtures see exactly what the provider wrote', async () => {
    const workspace = freshWorkspace();
    const provider = testProvider({ workspace });
    await provider.open();
    const fixtures = postgresFixtures(testPool(1), SHARED_SCHEMA, workspace);
    await provider.writeFile(p('x/y'), bytesOf('hello'), { overwrite: true });
    expect(Buffer.from((await fixtures.readFile('x/y')) ?? []).toString()).toBe('hello');
    expect(await fixtures.kindOf('x')).toBe('directory');
  });
});
