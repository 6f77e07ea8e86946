import { createHash } from 'node:crypto';
import type { ProcessStoreV1 } from '@libos/core';
import { expect, it, onTestFinished } from 'vitest';
import { createPostgresProcessStore } from '../src/index.js';
import { describePostgres, freshSchema, postgresUrl } from './postgres.js';

const key = (text: string) => createHash('sha256').update(text).digest('hex');

async function store(schema: string): Promise<ProcessStoreV1> {
  const opened = await createPostgresProcessStore({ connectionString: postgresUrl, schema });
  onTestFinished(() => opened.close());
  return opened;
}

describePostgres('the PostgreSQL process store', () => {
  it('keeps a record that any host on the database touches and moves', async () => {
    const schema = freshSchema();
    const [a, b] = [await store(schema), await store(schema)];
    await a.create(key('one'), { pid: 'pid_0123456789abcdef', cwd: 'src' });
    expect(await b.touch(key('one'), 60_000)).toEqual({ pid: 'pid_0123456789abcdef', cwd: 'src' });
    expect(await b.setCwd(key('one'), 'src/lib', 60_000)).toBe(true);
    expect(await a.touch(key('one'), 60_000)).toEqual({ pid: 'pid_0123456789abcdef', cwd: 'src/lib' });
    expect(await a.touch(key('two'), 60_000)).toBeUndefined();
    expect(await a.setCwd(key('two'), 'x', 60_000)).toBe(false);
  });

  it('refuses an expired record as a missing one, and the sweep hands each pid to one host only', async () => {
    const schema = freshSchema();
    const [a, b] = [await store(schema), await store(schema)];
    const pids = Array.from({ length: 40 }, (_, index) => `pid_${index.toString(16).padStart(16, '0')}`);
    for (const [index, pid] of pids.entries()) await a.create(key(`k${index}`), { pid, cwd: '.' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await a.touch(key('k0'), 200)).toBeUndefined();
    expect(await a.setCwd(key('k1'), 'x', 200)).toBe(false);
    const [fromA, fromB] = await Promise.all([a.sweep(200), b.sweep(200)]);
    expect([...fromA, ...fromB].sort()).toEqual([...pids].sort());
    expect(await a.touch(key('k2'), 60_000)).toBeUndefined();
  });

  it('refuses a key or a pid of the wrong shape with nothing stored, and says provider_failure without the statement', async () => {
    const schema = freshSchema();
    const a = await store(schema);
    const failure = await a.create('not-a-key', { pid: 'pid_0123456789abcdef', cwd: '.' }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'provider_failure', effect: 'none' });
    expect(String((failure as Error).message)).not.toContain('INSERT');
    await expect(a.create(key('x'), { pid: 'pid_', cwd: '.' })).rejects.toMatchObject({ code: 'provider_failure' });
    expect(await a.touch(key('x'), 60_000)).toBeUndefined();
  });

  it('answers provider_failure, effect none, when the database is unreachable', async () => {
    const url = new URL(postgresUrl);
    url.port = '1';
    const failure = await createPostgresProcessStore({ connectionString: url.href, schema: 'x' }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'provider_failure' });
  });
});
