import { createHash } from 'node:crypto';
import { LibosError, type WorkspacePath } from '@libos/core';
import { expect, it } from 'vitest';
import { CHUNK_BYTES, MIGRATIONS, migrate, quoteSchema } from '../src/index.js';
import { postgresFixtures } from './fixtures.js';
import { SHARED_SCHEMA, describePostgres, freshSchema, testPool, testProvider } from './postgres.js';

const p = (path: string) => path as WorkspacePath;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function pattern(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let index = 0; index < size; index++) bytes[index] = (index * 31 + seed + (index >> 16)) & 0xff;
  return bytes;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts.map((part) => Buffer.from(part))));
}

async function failure(call: Promise<unknown>): Promise<LibosError> {
  try {
    await call;
  } catch (error) {
    if (LibosError.is(error)) return error;
    throw error;
  }
  throw new Error('The call succeeded.');
}

describePostgres('appends, copies and ranges on the postgres provider', () => {
  it('appends across chunk boundaries keep every byte, and ranges read them back from anywhere', async () => {
    const provider = testProvider();
    const fixtures = postgresFixtures(testPool(1), SHARED_SCHEMA, provider.workspace);
    const parts = [pattern(CHUNK_BYTES - 10, 1), pattern(30, 2), pattern(2 * CHUNK_BYTES + 5, 3), pattern(CHUNK_BYTES - 25, 4), pattern(1, 5)];
    await provider.writeFile(p('f'), parts[0]!, { overwrite: false });
    let size = parts[0]!.length;
    for (const part of parts.slice(1)) {
      const appended = await provider.appendFile(p('f'), part, { create: false, expectedSizeBytes: size });
      size += part.length;
      expect(appended).toEqual({ bytesAppended: part.length, sizeBytes: size, created: false });
    }
    const whole = concat(...parts);
    // The fixtures read the raw chunks and check them against the size the entry records.
    expect(Buffer.from((await fixtures.readFile('f')) ?? []).equals(Buffer.from(whole))).toBe(true);
    expect(Buffer.from((await provider.readFile(p('f'), { maxBytes: size })).bytes).equals(Buffer.from(whole))).toBe(true);
    for (const [offset, maxBytes, fromEnd] of [
      [0, 5, false],
      [CHUNK_BYTES - 3, 7, false],
      [CHUNK_BYTES - 1, 2 * CHUNK_BYTES + 2, false],
      [3 * CHUNK_BYTES - 1, 10, false],
      [size - 1, 10, false],
      [size, 10, false],
      [0, 10, true],
      [CHUNK_BYTES, 2 * CHUNK_BYTES, true],
      [size - 2, 100, true],
      [size + 5, 100, true],
    ] as const) {
      const start = fromEnd ? Math.max(0, Math.max(0, size - offset) - maxBytes) : Math.min(size, offset);
      const end = fromEnd ? Math.max(0, size - offset) : Math.min(size, offset + maxBytes);
      const read = await provider.readFileRange(p('f'), { offset, maxBytes, fromEnd });
      const label = `${offset} ${maxBytes} ${fromEnd}`;
      expect({ offset: read.offset, sizeBytes: read.sizeBytes }, label).toEqual({ offset: start, sizeBytes: size });
      expect(Buffer.from(read.bytes).equals(Buffer.from(whole.subarray(start, end))), label).toBe(true);
    }
  });

  it('racing appends across a chunk boundary all land, whole', async () => {
    const provider = testProvider();
    const start = new Uint8Array(CHUNK_BYTES - 1000).fill(0x2e);
    await provider.writeFile(p('log'), start, { overwrite: false });
    const lines = Array.from({ length: 60 }, (_, index) => `line ${String(index).padStart(2, '0')} ${'x'.repeat(index * 7)}\n`);
    await Promise.all(lines.map((line) => provider.appendFile(p('log'), new TextEncoder().encode(line), { create: false })));
    const { bytes } = await provider.readFile(p('log'), { maxBytes: 2 * CHUNK_BYTES });
    expect(bytes.subarray(0, start.length).every((byte) => byte === 0x2e)).toBe(true);
    const added = new TextDecoder().decode(bytes.subarray(start.length)).split(/(?<=\n)/);
    expect([...added].sort()).toEqual([...lines].sort());
  });

  it('a guarded write after an append compares the hash of the bytes the file holds now', async () => {
    const provider = testProvider();
    const before = new TextEncoder().encode('one\n');
    await provider.writeFile(p('f'), before, { overwrite: false });
    await provider.appendFile(p('f'), new TextEncoder().encode('two\n'), { create: false });
    const now = sha256(new TextEncoder().encode('one\ntwo\n'));
    const stale = await failure(provider.writeFile(p('f'), before, { overwrite: true, expectedSha256: sha256(before) }));
    expect(stale).toMatchObject({ code: 'content_conflict', details: { expected_sha256: sha256(before), actual_sha256: now } });
    expect(await provider.writeFile(p('f'), before, { overwrite: true, expectedSha256: now })).toEqual({ created: false });
    // An append to an empty file made by the append itself keeps a hash from the start.
    await provider.appendFile(p('g'), new TextEncoder().encode('new'), { create: true });
    expect(await provider.writeFile(p('g'), before, { overwrite: true, expectedSha256: sha256(new TextEncoder().encode('new')) })).toEqual({
      created: false,
    });
  });

  it('refuses an append or a copy past workspaceMaxBytes with quota_exceeded, changing nothing', async () => {
    const provider = testProvider({ workspaceMaxBytes: 100 });
    await provider.writeFile(p('a'), new Uint8Array(60), { overwrite: false });
    const append = await failure(provider.appendFile(p('a'), new Uint8Array(41), { create: false }));
    expect(append).toMatchObject({ code: 'quota_exceeded', effect: 'none', details: { path: 'a', used_bytes: 60, write_bytes: 41, max_bytes: 100 } });
    const created = await failure(provider.appendFile(p('d/new'), new Uint8Array(41), { create: true }));
    expect(created).toMatchObject({ code: 'quota_exceeded', details: { path: 'd/new', write_bytes: 41 } });
    expect((await provider.stat(p('d'))).kind).toBe('missing');
    const copy = await failure(provider.copyFile(p('a'), p('e/b'), { overwrite: false }));
    expect(copy).toMatchObject({ code: 'quota_exceeded', effect: 'none', details: { path: 'e/b', used_bytes: 60, write_bytes: 60, max_bytes: 100 } });
    expect((await provider.stat(p('e'))).kind).toBe('missing');
    expect(await provider.stat(p('a'))).toMatchObject({ sizeBytes: 60 });
    // What fits lands; a copy that replaces a file counts only what it adds.
    expect(await provider.appendFile(p('a'), new Uint8Array(10), { create: false })).toMatchObject({ sizeBytes: 70 });
    await provider.writeFile(p('b'), new Uint8Array(30), { overwrite: false });
    expect(await provider.copyFile(p('b'), p('a'), { overwrite: true })).toEqual({ bytesCopied: 30, replaced: true });
    expect(await provider.copyFile(p('b'), p('c'), { overwrite: false })).toEqual({ bytesCopied: 30, replaced: false });
    await failure(provider.appendFile(p('c'), new Uint8Array(11), { create: false }));
    expect(await provider.appendFile(p('c'), new Uint8Array(10), { create: false })).toMatchObject({ sizeBytes: 40 });
  });

  it('a copy of a file of several chunks is its own: changing or deleting either leaves the other whole', async () => {
    const provider = testProvider();
    const bytes = pattern(2 * CHUNK_BYTES + 777, 9);
    await provider.writeFile(p('src/big'), bytes, { overwrite: false });
    expect(await provider.copyFile(p('src/big'), p('dst/big'), { overwrite: false })).toEqual({ bytesCopied: bytes.length, replaced: false });
    await provider.appendFile(p('src/big'), new Uint8Array([1, 2, 3]), { create: false });
    await provider.deleteFile(p('src/big'), { missingOk: false });
    const { bytes: copied } = await provider.readFile(p('dst/big'), { maxBytes: 3 * CHUNK_BYTES });
    expect(Buffer.from(copied).equals(Buffer.from(bytes))).toBe(true);
    // A copy onto itself with overwrite changes nothing and says it replaced the file, as on disk.
    expect(await provider.copyFile(p('dst/big'), p('dst/big'), { overwrite: true })).toEqual({ bytesCopied: bytes.length, replaced: true });
    expect(sha256((await provider.readFile(p('dst/big'), { maxBytes: 3 * CHUNK_BYTES })).bytes)).toBe(sha256(bytes));
  });

  it('a schema at version 1 is brought to version 2 on open, keeping its files, which then append and copy', async () => {
    const schema = freshSchema();
    const pool = testPool(2);
    expect(await migrate(pool, schema, quoteSchema(schema), MIGRATIONS.slice(0, 1))).toEqual({ from: 0, to: 1 });
    // A workspace and a file as version 1 left them.
    const workspace = 'old';
    await pool.query(`INSERT INTO "${schema}".workspaces (name) VALUES ($1)`, [workspace]);
    await pool.query(
      `INSERT INTO "${schema}".entries (workspace_id, parent_id, name, kind, mode) SELECT id, NULL, ''::bytea, 'd', 493 FROM "${schema}".workspaces WHERE name = $1`,
      [workspace],
    );
    const fixtures = postgresFixtures(pool, schema, workspace);
    await fixtures.writeFile('log.txt', 'one\n');
    const provider = testProvider({ schema, pool, workspace });
    expect(await provider.open()).toEqual({ created: false });
    const { rows } = await pool.query(`SELECT max(version) AS version FROM "${schema}".schema_migrations`);
    expect(rows[0].version).toBe(MIGRATIONS.length);
    expect(await provider.appendFile(p('log.txt'), new TextEncoder().encode('two\n'), { create: false, expectedSizeBytes: 4 })).toMatchObject({
      sizeBytes: 8,
    });
    expect(await provider.copyFile(p('log.txt'), p('copy.txt'), { overwrite: false })).toEqual({ bytesCopied: 8, replaced: false });
    expect(new TextDecoder().decode((await fixtures.readFile('copy.txt')) ?? new Uint8Array())).toBe('one\ntwo\n');
  });
});
