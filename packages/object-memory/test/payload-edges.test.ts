import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_APPLICATION_ID, CHECKPOINT_FORMAT_VERSION, createObjectMemory, freezeJsonCopy, payloadByteLength } from '../src/index.js';
import { failureOf, pid, useScratchDirectory } from './support.js';

const scratch = useScratchDirectory('libos-payload-');

describe('payload copies', () => {
  it('keeps a "__proto__" key as data, never as the prototype, through a checkpoint too', async () => {
    const payload = JSON.parse('{"__proto__": {"injected": true}, "b": 2}') as unknown;
    const copy = freezeJsonCopy(payload);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy as object)).toEqual(['__proto__', 'b']);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"injected":true},"b":2}');
    expect(payloadByteLength(copy)).toBe(Buffer.byteLength('{"__proto__":{"injected":true},"b":2}'));
    const memory = await createObjectMemory({ namespaces: ['n'] });
    await memory.create({ namespace: 'n', name: 'p', type: 'artifact', payload, createdBy: pid });
    const file = join(scratch.path, 'memory.sqlite');
    await memory.checkpoint(file);
    const restored = (await (await createObjectMemory({ restore: file })).get('n', 'p')).payload as Record<string, unknown>;
    expect(JSON.stringify(restored)).toBe('{"__proto__":{"injected":true},"b":2}');
    expect(Object.getPrototypeOf(restored)).toBe(Object.prototype);
  });

  it('refuses a sparse array, whose hole JSON would turn into null', async () => {
    // eslint-disable-next-line no-sparse-arrays
    expect((await failureOf(async () => freezeJsonCopy([, 1]))).code).toBe('invalid_arguments');
  });

  it('refuses JSON nested deeper than the stack allows with invalid_arguments, storing nothing', async () => {
    let deep: unknown = 1;
    for (let level = 0; level < 200_000; level++) deep = [deep];
    const memory = await createObjectMemory({ namespaces: ['n'] });
    const failure = await failureOf(
      async () => await memory.create({ namespace: 'n', name: 'deep', type: 'artifact', payload: deep, createdBy: pid }),
    );
    expect(failure.code).toBe('invalid_arguments');
    expect(await memory.list('n')).toEqual([]);
  });

  it('measures the UTF-8 of compact JSON exactly: escapes, U+2028, emoji and lone surrogates', async () => {
    const cases: Array<[unknown, number]> = [
      ['\u2028', 5], // raw in JSON: 3 bytes + quotes
      ['\u{1F600}', 6],
      ['\u0000', 8], // \u0000
      ['"\\', 6],
      ['\uD800', 8], // JSON.stringify writes a lone surrogate as \ud800
      [{ a: [1, 'é'] }, 14],
    ];
    for (const [payload, bytes] of cases) expect(payloadByteLength(freezeJsonCopy(payload)), JSON.stringify(payload)).toBe(bytes);
  });
});

describe('checkpoint edges', () => {
  it('refuses a name with a lone surrogate at creation: no checkpoint could bring it back', async () => {
    const memory = await createObjectMemory({ namespaces: ['n'] });
    const failure = await failureOf(
      async () => await memory.create({ namespace: 'n', name: 'odd \uDC00', type: 'artifact', payload: 1, createdBy: pid }),
    );
    expect(failure.code).toBe('invalid_name');
    expect(await memory.list('n')).toEqual([]);
  });

  it('refuses to checkpoint a field it could not bring back unchanged, keeping the previous image', async () => {
    const memory = await createObjectMemory({ namespaces: ['n'] });
    await memory.create({ namespace: 'n', name: 'fine', type: 'artifact', payload: 'lone \uD800 in a payload is kept', createdBy: pid });
    const file = join(scratch.path, 'memory.sqlite');
    await memory.checkpoint(file);
    await memory.create({ namespace: 'n', name: 'odd', type: 'artifact', payload: 1, createdBy: 'pid \uDC00' });
    const failure = await failureOf(async () => await memory.checkpoint(file));
    expect(failure.code).toBe('invalid_arguments');
    expect(failure.effect).toBe('none');
    expect(readdirSync(scratch.path)).toEqual(['memory.sqlite']);
    const restored = await createObjectMemory({ restore: file });
    expect((await restored.list('n')).map((object) => [object.name, object.payload])).toEqual([['fine', 'lone \uD800 in a payload is kept']]);
  });

  it('refuses a forged checkpoint that holds one name or oid twice', async () => {
    for (const duplicate of ['name', 'oid'] as const) {
      const file = join(scratch.path, `${duplicate}.sqlite`);
      const database = new Database(file);
      database.pragma(`application_id = ${CHECKPOINT_APPLICATION_ID}`);
      database.pragma(`user_version = ${CHECKPOINT_FORMAT_VERSION}`);
      database.exec(`CREATE TABLE namespaces (name TEXT);
        CREATE TABLE objects (seq INTEGER PRIMARY KEY, oid, namespace, name, type, label, created_at, created_by, payload);`);
      database.prepare("INSERT INTO namespaces VALUES ('n')").run();
      const insert = database.prepare("INSERT INTO objects VALUES (NULL, ?, 'n', ?, 'artifact', 'normal', '2024-01-01T00:00:00.000Z', ?, '1')");
      insert.run('obj_0000000000000001', 'same', pid);
      insert.run(duplicate === 'oid' ? 'obj_0000000000000001' : 'obj_0000000000000002', duplicate === 'name' ? 'same' : 'other', pid);
      database.close();
      const failure = await failureOf(async () => await createObjectMemory({ restore: file }));
      expect(failure.code, duplicate).toBe('invalid_arguments');
      expect(failure.message).toMatch(/object row 2/);
    }
  });

  it('refuses a checkpoint of a newer format version with a clear message', async () => {
    const file = join(scratch.path, 'memory.sqlite');
    await (await createObjectMemory({ namespaces: ['n'] })).checkpoint(file);
    const database = new Database(file);
    database.pragma(`user_version = ${CHECKPOINT_FORMAT_VERSION + 1}`);
    database.close();
    const failure = await failureOf(async () => await createObjectMemory({ restore: file }));
    expect(failure.code).toBe('invalid_arguments');
    expect(failure.message).toMatch(/format version 2 is not supported/);
  });

  it('says clearly, without the host path, that the checkpoint directory is missing', async () => {
    const failure = await failureOf(async () =>
      (await createObjectMemory({ namespaces: ['n'] })).checkpoint(join(scratch.path, 'missing', 'memory.sqlite')),
    );
    expect(failure.code).toBe('provider_failure');
    expect(failure.message).toMatch(/directory does not exist/);
    expect(failure.message).not.toContain(scratch.path);
    expect(readdirSync(scratch.path)).toEqual([]);
  });
});
