import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkspacePath } from '@libos/core';
import pg from 'pg';
import { expect, it, onTestFinished } from 'vitest';
import { createPostgresProvider } from '../src/index.js';
import { SHARED_SCHEMA, describePostgres, freshWorkspace, postgresUrl, testProvider } from './postgres.js';

const p = (path: string) => path as WorkspacePath;
const bytes = (text: string) => new TextEncoder().encode(text);

async function admin(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: postgresUrl });
  client.on('error', () => undefined);
  await client.connect();
  onTestFinished(() => client.end().catch(() => undefined));
  return client;
}

/** Terminates the backends of `applicationName` that wait on a lock, once at least one does. */
async function terminateWaiting(killer: pg.Client, applicationName: string): Promise<void> {
  for (;;) {
    const { rowCount } = await killer.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
      [applicationName],
    );
    if ((rowCount ?? 0) > 0) return;
    await sleep(10);
  }
}

function namedProvider(applicationName: string, workspace = freshWorkspace()) {
  return testProvider({ workspace, connectionString: `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}application_name=${applicationName}` });
}

async function failureOf(call: Promise<unknown>): Promise<{ code: string; effect: string; details?: Record<string, unknown> }> {
  try {
    await call;
  } catch (error) {
    return error as { code: string; effect: string };
  }
  throw new Error('The call succeeded.');
}

describePostgres('a lost connection', () => {
  it('fails an interrupted write with provider_failure, effect unknown, and the next call reconnects', async () => {
    const name = `libos-loss-${freshWorkspace()}`;
    const provider = namedProvider(name);
    await provider.writeFile(p('f'), bytes('old'), { overwrite: false });
    const locker = await admin();
    // Holding the workspace row makes the write wait inside the database, where it is cut off.
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM "${SHARED_SCHEMA}".workspaces WHERE name = $1 FOR UPDATE`, [provider.workspace]);
    const writing = failureOf(provider.writeFile(p('f'), bytes('new'), { overwrite: true }));
    await terminateWaiting(await admin(), name);
    const error = await writing;
    expect(error).toMatchObject({ code: 'provider_failure', effect: 'unknown' });
    expect(error.details?.path).toBe('f');
    await locker.query('ROLLBACK');
    expect(new TextDecoder().decode((await provider.readFile(p('f'), { maxBytes: 10 })).bytes)).toBe('old');
    expect(await provider.writeFile(p('f'), bytes('after'), { overwrite: true })).toEqual({ created: false });
  });

  it('fails an interrupted append or copy with effect unknown; rolled back, it changed nothing', async () => {
    const name = `libos-loss-${freshWorkspace()}`;
    const provider = namedProvider(name);
    await provider.writeFile(p('log'), bytes('one\n'), { overwrite: false });
    for (const call of [
      () => provider.appendFile(p('log'), bytes('two\n'), { create: false }),
      () => provider.copyFile(p('log'), p('copy'), { overwrite: false }),
    ]) {
      const locker = await admin();
      await locker.query('BEGIN');
      await locker.query(`SELECT 1 FROM "${SHARED_SCHEMA}".workspaces WHERE name = $1 FOR UPDATE`, [provider.workspace]);
      const changing = failureOf(call());
      await terminateWaiting(await admin(), name);
      expect(await changing).toMatchObject({ code: 'provider_failure', effect: 'unknown' });
      await locker.query('ROLLBACK');
    }
    // The server rolled both back: the file is as it was and the copy never appeared.
    expect(new TextDecoder().decode((await provider.readFile(p('log'), { maxBytes: 100 })).bytes)).toBe('one\n');
    expect((await provider.stat(p('copy'))).kind).toBe('missing');
    expect(await provider.appendFile(p('log'), bytes('two\n'), { create: false, expectedSizeBytes: 4 })).toMatchObject({ sizeBytes: 8 });
  });

  it('fails a read cut off mid-query with effect none, and the next read reconnects', async () => {
    const name = `libos-loss-${freshWorkspace()}`;
    const provider = namedProvider(name);
    await provider.writeFile(p('kept'), bytes('z'), { overwrite: false });
    const locker = await admin();
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE "${SHARED_SCHEMA}".chunks IN ACCESS EXCLUSIVE MODE`);
    const reading = failureOf(provider.readFile(p('kept'), { maxBytes: 10 }));
    await terminateWaiting(await admin(), name);
    expect(await reading).toMatchObject({ code: 'provider_failure', effect: 'none' });
    await locker.query('ROLLBACK');
    expect(new TextDecoder().decode((await provider.readFile(p('kept'), { maxBytes: 10 })).bytes)).toBe('z');
  });

  it('fails a multi-chunk write cut off before its commit with effect none, leaving the old file whole', async () => {
    const name = `libos-loss-${freshWorkspace()}`;
    const provider = namedProvider(name);
    await provider.writeFile(p('big'), bytes('old'), { overwrite: false });
    const locker = await admin();
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM "${SHARED_SCHEMA}".workspaces WHERE name = $1 FOR UPDATE`, [provider.workspace]);
    // Its chunks go in first; then it waits for the workspace lock in write_file, before COMMIT.
    const writing = failureOf(provider.writeFile(p('big'), new Uint8Array(3 * 1024 * 1024).fill(7), { overwrite: true }));
    await terminateWaiting(await admin(), name);
    expect(await writing).toMatchObject({ code: 'provider_failure', effect: 'none' });
    await locker.query('ROLLBACK');
    expect(new TextDecoder().decode((await provider.readFile(p('big'), { maxBytes: 10 })).bytes)).toBe('old');
  });

  it('fails every call with provider_failure, effect none, while the database cannot be reached, and works once it can', async () => {
    // A port nothing listens on: every connection attempt is refused.
    const closed = await new Promise<number>((resolve) => {
      import('node:net').then(({ createServer }) => {
        const server = createServer().listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          server.close(() => resolve(port));
        });
      });
    });
    const down = createPostgresProvider({ connectionString: `postgres://postgres@127.0.0.1:${closed}/postgres`, workspace: freshWorkspace() });
    onTestFinished(() => down.close());
    for (const call of [() => down.stat(p('x')), () => down.writeFile(p('x'), bytes('x'), { overwrite: true }), () => down.open()]) {
      const error = await failureOf(call());
      expect(error).toMatchObject({ code: 'provider_failure', effect: 'none' });
    }
    // The same workspace through a live server: a failed open is not remembered.
    const pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
    pool.on('error', () => undefined);
    onTestFinished(() => pool.end());
    const live = createPostgresProvider({ pool, schema: SHARED_SCHEMA, workspace: down.workspace });
    expect((await live.stat(p('.'))).kind).toBe('directory');
  });

  it('recovers after every connection of its pool is terminated while idle', async () => {
    const name = `libos-loss-${freshWorkspace()}`;
    const provider = namedProvider(name);
    await provider.writeFile(p('f'), bytes('x'), { overwrite: false });
    const killer = await admin();
    await killer.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
    // A call that meets a dead connection fails with provider_failure; a later one reconnects.
    let read: Uint8Array | undefined;
    for (let attempt = 0; attempt < 5 && read === undefined; attempt++) {
      try {
        read = (await provider.readFile(p('f'), { maxBytes: 10 })).bytes;
      } catch (error) {
        expect(error).toMatchObject({ code: 'provider_failure', effect: 'none' });
      }
    }
    expect(new TextDecoder().decode(read)).toBe('x');
  });
});
