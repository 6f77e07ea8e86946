import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createObjectMemory, type ObjectMemory } from '../src/index.js';
import { failureOf, pid, useScratchDirectory } from './support.js';

const scratch = useScratchDirectory('libos-checkpoint-safety-');

const modeOf = (file: string) => statSync(file).mode & 0o777;

async function saved(objects = 3): Promise<{ file: string; memory: ObjectMemory }> {
  const memory = await createObjectMemory({ namespaces: ['shared'] });
  for (let index = 0; index < objects; index++) {
    await memory.create({
      namespace: 'shared',
      name: `n${index}`,
      type: 'evidence',
      payload: { content: `text ${index}` },
      label: 'secret',
      createdBy: pid,
    });
  }
  const file = join(scratch.path, 'memory.sqlite');
  await memory.checkpoint(file);
  return { file, memory };
}

/** Changes rows of a saved checkpoint the way an attacker with write access to the file could. */
function forge(file: string, sql: string, ...parameters: unknown[]): void {
  const database = new Database(file);
  database.prepare(sql).run(...parameters);
  database.close();
}

describe('checkpoint file mode', () => {
  let umask = 0;
  beforeEach(() => {
    // The most permissive umask: the mode must come from the writer, not the environment.
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('creates the file 0600 and keeps it 0600 on every save, even after it was loosened', async () => {
    const { file, memory } = await saved();
    expect(modeOf(file)).toBe(0o600);
    chmodSync(file, 0o666);
    await memory.checkpoint(file);
    expect(modeOf(file)).toBe(0o600);
    chmodSync(file, 0o644);
    await memory.create({ namespace: 'shared', name: 'later', type: 'artifact', payload: 1, createdBy: pid });
    await memory.checkpoint(file);
    expect(modeOf(file)).toBe(0o600);
    expect(await (await createObjectMemory({ restore: file })).list('shared')).toHaveLength(4);
  });
});

describe('restore checks every row as creation does', () => {
  it('refuses a crafted 64 MiB payload (4x object_payload_max_bytes) and restores nothing', async () => {
    const { file } = await saved();
    forge(file, 'UPDATE objects SET payload = ? WHERE name = ?', JSON.stringify({ content: 'x'.repeat(64 * 1024 * 1024) }), 'n1');
    const memory = await createObjectMemory({ namespaces: ['mine'] });
    const failure = await failureOf(async () => await memory.restore(file));
    expect(failure.code).toBe('invalid_arguments');
    expect(failure.effect).toBe('none');
    expect(failure.message).toBe('The checkpoint file is malformed: object row 2 has a payload over the 16777216-byte bound.');
    expect(await memory.listNamespaces()).toEqual(['mine']);
    expect((await memory.usage()).objects).toBe(0);
  });

  it("holds restored payloads to the memory's own payload gate, measured as create measures it", async () => {
    const { file } = await saved();
    expect((await (await createObjectMemory({ maxPayloadBytes: 20, restore: file })).usage()).objects).toBe(3);
    // {"content":"text 0"} is 20 bytes of compact JSON.
    expect((await failureOf(async () => await createObjectMemory({ maxPayloadBytes: 19, restore: file }))).message).toMatch(
      /object row 1 has a payload over the 19-byte bound/,
    );
    // Padding that JSON ignores still counts against the stored text, so it cannot smuggle a larger value.
    forge(file, 'UPDATE objects SET payload = ? WHERE name = ?', '{"content":"text 0"}     ', 'n0');
    expect((await failureOf(async () => await createObjectMemory({ maxPayloadBytes: 20, restore: file }))).message).toMatch(
      /object row 1 has a payload over/,
    );
  });

  it('refuses an invalid name in the namespace table with a contract error, and leaks no database handle', async () => {
    const { file } = await saved();
    forge(file, 'PRAGMA foreign_keys = OFF');
    forge(file, "INSERT INTO namespaces (name) VALUES ('a/../b')");
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const first = await failureOf(async () => await createObjectMemory({ restore: file }));
    expect(first).toMatchObject({ code: 'invalid_arguments', effect: 'none' });
    expect(first.message).toBe('The checkpoint file is malformed: namespace row 1 is not a valid namespace.');
    const before = openFiles();
    for (let attempt = 0; attempt < 20; attempt++) {
      const memory = await createObjectMemory({ namespaces: ['shared'] });
      expect((await failureOf(async () => await memory.restore(file))).code).toBe('invalid_arguments');
    }
    // Each leaked handle would hold the file (and its journal) open: 20 attempts, not one more fd.
    expect(openFiles()).toBe(before);
  });

  it('names the first bad row when several are bad', async () => {
    const { file } = await saved(5);
    forge(file, "UPDATE objects SET label = 'top' WHERE name = 'n3'");
    forge(file, "UPDATE objects SET name = 'a/b' WHERE name = 'n1'");
    forge(file, 'UPDATE objects SET payload = ? WHERE name = ?', 'y'.repeat(100), 'n4');
    const failure = await failureOf(async () => await createObjectMemory({ restore: file }));
    expect(failure.message).toBe('The checkpoint file is malformed: object row 2 has an invalid name.');
  });

  it.each([
    ['an oid of another shape', "UPDATE objects SET oid = 'obj_XYZ' WHERE name = 'n0'", /object row 1 has an invalid oid/],
    ['a name with surrounding spaces', "UPDATE objects SET name = ' n0' WHERE name = 'n0'", /object row 1 has an invalid name/],
    ['an empty name', "UPDATE objects SET name = '' WHERE name = 'n0'", /object row 1 has an invalid name/],
    ['a type outside the set', "UPDATE objects SET type = 'file' WHERE name = 'n2'", /object row 3 has an unknown type/],
    ['an unknown label', "UPDATE objects SET label = 'SECRET' WHERE name = 'n0'", /object row 1 has an unknown label/],
    ['a payload stored as a blob', "UPDATE objects SET payload = X'7b7d' WHERE name = 'n0'", /object row 1 has no JSON payload/],
    ['a payload that is not JSON', "UPDATE objects SET payload = '{' WHERE name = 'n0'", /object row 1 has a payload that is not JSON/],
    ['an invalid creation time', "UPDATE objects SET created_at = 'yesterday' WHERE name = 'n0'", /object row 1 has an invalid created_at/],
  ])('refuses %s naming the row', async (_, sql, message) => {
    const { file } = await saved();
    forge(file, sql);
    const failure = await failureOf(async () => await createObjectMemory({ restore: file }));
    expect(failure.code).toBe('invalid_arguments');
    expect(failure.message).toMatch(message);
  });

  it('refuses a file past objects_max_count or objects_max_bytes, counting the live Objects too', async () => {
    const { file } = await saved(3);
    expect((await failureOf(async () => await createObjectMemory({ maxObjectsCount: 2, restore: file }))).code).toBe('quota_exceeded');
    const memory = await createObjectMemory({ namespaces: ['mine'], maxObjectsCount: 4 });
    await memory.create({ namespace: 'mine', name: 'a', type: 'artifact', payload: 1, createdBy: pid });
    await memory.create({ namespace: 'mine', name: 'b', type: 'artifact', payload: 2, createdBy: pid });
    const failure = await failureOf(async () => await memory.restore(file));
    expect(failure.code).toBe('quota_exceeded');
    expect(failure.effect).toBe('none');
    expect(failure.message).toMatch(/object row 3 would take Object Memory past its objects_max_count quota/);
    expect(await memory.listNamespaces()).toEqual(['mine']);
    // {"content":"text N"} is 20 bytes each: 60 in all.
    expect((await (await createObjectMemory({ maxObjectsBytes: 60, restore: file })).usage()).bytes).toBe(60);
    expect((await failureOf(async () => await createObjectMemory({ maxObjectsBytes: 59, restore: file }))).message).toMatch(
      /object row 3 .*objects_max_bytes/,
    );
  });
});
