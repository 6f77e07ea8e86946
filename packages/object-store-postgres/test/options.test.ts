import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { createPostgresObjectStore } from '../src/index.js';
import { objectFor } from './objects.js';
import { describePostgres, freshSchema, testPool } from './postgres.js';

it.each([
  [{}, 'either a connectionString or a pool'],
  [{ connectionString: 'postgres://x@127.0.0.1:1/db', pool: {} as never }, 'either a connectionString or a pool'],
  [{ connectionString: 'postgres://x@127.0.0.1:1/db', schema: 'Bad-Name' }, 'The schema must be'],
  [{ connectionString: 'postgres://x@127.0.0.1:1/db', leaseMs: 0 }, 'leaseMs'],
  [{ connectionString: 'postgres://x@127.0.0.1:1/db', leaseMs: 1.5 }, 'leaseMs'],
])('createPostgresObjectStore(%j) is refused with invalid_arguments before connecting', async (options, message) => {
  await expect(createPostgresObjectStore(options)).rejects.toMatchObject({
    code: 'invalid_arguments',
    effect: 'none',
    message: expect.stringContaining(message),
  });
});

it('a server that cannot be reached fails with provider_failure, and the message holds no password', async () => {
  // A port just freed on loopback: nothing listens there.
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });
  const failure = await createPostgresObjectStore({ connectionString: `postgres://user:s3cret-word@127.0.0.1:${port}/db` }).catch(
    (error: unknown) => error,
  );
  expect(failure).toMatchObject({ code: 'provider_failure' });
  expect(JSON.stringify({ message: (failure as Error).message, details: (failure as { details: unknown }).details })).not.toContain('s3cret-word');
});

describePostgres('a pool of your own', () => {
  it('is used and never ended by close(); later calls on the store fail with provider_failure, effect none', async () => {
    const pool = testPool();
    const schema = freshSchema();
    const store = await createPostgresObjectStore({ pool, schema });
    await store.declareNamespace('shared');
    await store.create(...objectFor('shared', 'a', 1));
    await store.close();
    await store.close();
    expect((await pool.query(`SELECT count(*)::int AS n FROM "${schema}".objects`)).rows[0].n).toBe(1);
    await expect(store.listNames('shared')).rejects.toMatchObject({ code: 'provider_failure', effect: 'none' });
    await expect(store.create(...objectFor('shared', 'b', 2))).rejects.toMatchObject({ code: 'provider_failure', effect: 'none' });
  });

  it('two schemas on one database are two separate Object Memories', async () => {
    const pool = testPool();
    const first = await createPostgresObjectStore({ pool, schema: freshSchema() });
    const second = await createPostgresObjectStore({ pool, schema: freshSchema() });
    await first.declareNamespace('shared');
    await second.declareNamespace('shared');
    await first.create(...objectFor('shared', 'same', 1));
    await second.create(...objectFor('shared', 'same', 2));
    expect((await first.get('shared', 'same'))?.payload).toBe(1);
    expect((await second.get('shared', 'same'))?.payload).toBe(2);
    expect(await first.spendUses('k', 1, 1)).toBe(true);
    expect(await second.spendUses('k', 1, 1)).toBe(true);
  });
});
