import { randomInt } from 'node:crypto';
import pg from 'pg';

/**
 * The first key of the two-key advisory lock a store holds for its life: "libH" in ASCII (the
 * migration lock uses "libO"), so no other application's lock collides with it by accident.
 */
export const OWNER_LOCK_CLASS = 0x6c696248;

/** How long a store waits before it takes its lock again on a new connection after losing it. */
const RETAKE_MS = 1_000;

/** The session lock that says "the store that declared this process namespace is alive". */
export interface OwnerLock {
  /** The second key of the lock, recorded with every process namespace the store declares. */
  readonly key: number;
  /** Ends the connection, which releases the lock. */
  release(): Promise<void>;
}

/**
 * Takes a session-level advisory lock under a key no live store holds, on a connection of its own
 * (made with `pool`'s settings, outside the pool, so it takes no slot there and never holds up the
 * pool's end) that the store keeps for its life and that never keeps the host process running. A lease expires by the clock, and a host whose event
 * loop is stalled (by a long synchronous step) cannot renew in time; but its connection stays
 * open, and PostgreSQL releases a session lock only when the session ends (the process exited, or
 * its host died and the connection broke). So a sweep that spares every namespace whose owner's
 * lock is held never takes the namespace of a process that is alive. A connection lost while the
 * store lives is replaced and the same key taken again; meanwhile the lease alone protects.
 */
export async function holdOwnerLock(pool: pg.Pool): Promise<OwnerLock> {
  let client: pg.Client | undefined = await connect(pool);
  let key = 0;
  for (let attempt = 0; key === 0; attempt++) {
    const candidate = randomInt(1, 2 ** 31);
    if (await tryLock(client, candidate)) key = candidate;
    else if (attempt === 8) {
      await client.end().catch(() => undefined);
      throw new Error('no free owner lock key after 8 attempts');
    }
  }
  let released = false;
  let retake: NodeJS.Timeout | undefined;
  const watch = (held: pg.Client) => {
    const lost = () => {
      if (client !== held) return;
      client = undefined;
      held.end().catch(() => undefined);
      schedule();
    };
    held.on('error', lost);
    held.on('end', lost);
  };
  const schedule = () => {
    if (released || retake !== undefined) return;
    retake = setTimeout(async () => {
      retake = undefined;
      if (released) return;
      const fresh = await connect(pool).catch(() => undefined);
      if (fresh === undefined) return schedule();
      if (released || !(await tryLock(fresh, key).catch(() => false))) {
        await fresh.end().catch(() => undefined);
        return schedule();
      }
      client = fresh;
      watch(fresh);
    }, RETAKE_MS);
    retake.unref();
  };
  watch(client);
  return {
    key,
    async release() {
      released = true;
      if (retake !== undefined) clearTimeout(retake);
      const held = client;
      client = undefined;
      // Ending the connection ends the session, and with it the lock.
      await held?.end().catch(() => undefined);
    },
  };
}

async function connect(pool: pg.Pool): Promise<pg.Client> {
  const client = new pg.Client(pool.options);
  // A broken connection emits 'error'; unheard, Node would end the process. `watch` acts on it.
  client.on('error', () => undefined);
  await client.connect();
  // The lock must not keep a host running that has nothing else to do: its exit releases the lock anyway.
  (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
  return client;
}

async function tryLock(client: pg.Client, key: number): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::integer, $2::integer) AS locked', [
    OWNER_LOCK_CLASS,
    key,
  ]);
  return rows[0]?.locked === true;
}
