import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { expect, it, onTestFinished } from 'vitest';
import { objectFor } from './objects.js';
import { describePostgres, freshSchema, postgresUrl, testStore } from './postgres.js';

async function admin(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: postgresUrl });
  client.on('error', () => undefined);
  await client.connect();
  onTestFinished(() => client.end().catch(() => undefined));
  return client;
}

describePostgres('a connection lost mid-call', () => {
  it('fails the create with provider_failure, effect unknown, and the next call reconnects', async () => {
    const schema = freshSchema();
    const store = await testStore(schema);
    await store.declareNamespace('shared');
    const locker = await admin();
    // Hold the usage row so the create waits inside the database, where it can be cut off.
    await locker.query('BEGIN');
    await locker.query(`SELECT * FROM "${schema}".usage FOR UPDATE`);
    // Settled into a value at once, so its rejection is never unhandled while the loop below waits.
    const creating = store.create(...objectFor('shared', 'cut', 'x')).catch((error: unknown) => error);
    const killer = await admin();
    let killed = 0;
    while (killed === 0) {
      const { rowCount } = await killer.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%create_object%' AND strpos(query, $1) > 0 AND pid <> pg_backend_pid()`,
        [schema],
      );
      killed = rowCount ?? 0;
      if (killed === 0) await sleep(20);
    }
    expect(await creating).toMatchObject({ code: 'provider_failure', effect: 'unknown' });
    await locker.query('ROLLBACK');
    const [next, options] = objectFor('shared', 'after', 'y');
    await store.create(next, options);
    expect(await store.get('shared', 'after')).toEqual(next);
  });

  it('fails a read cut off mid-query with provider_failure, effect none, and the next read reconnects', async () => {
    const schema = freshSchema();
    const store = await testStore(schema);
    await store.declareNamespace('shared');
    await store.create(...objectFor('shared', 'kept', 'z'));
    const killer = await admin();
    const locker = await admin();
    await locker.query('BEGIN');
    // An ACCESS EXCLUSIVE lock makes the read wait inside the database.
    await locker.query(`LOCK TABLE "${schema}".objects IN ACCESS EXCLUSIVE MODE`);
    const reading = store.get('shared', 'kept').catch((error: unknown) => error);
    let killed = 0;
    while (killed === 0) {
      const { rowCount } = await killer.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%o.payload%' AND strpos(query, $1) > 0 AND pid <> pg_backend_pid()`,
        [schema],
      );
      killed = rowCount ?? 0;
      if (killed === 0) await sleep(20);
    }
    expect(await reading).toMatchObject({ code: 'provider_failure', effect: 'none' });
    await locker.query('ROLLBACK');
    expect((await store.get('shared', 'kept'))?.payload).toBe('z');
  });
});
