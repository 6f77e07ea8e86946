import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { objectFor } from './objects.js';
import { describePostgres, freshSchema, postgresUrl, testStore } from './postgres.js';
import { startStoreHost } from './store-host.js';

describePostgres('a lease under an event-loop stall', () => {
  it("an owner whose renewals stalled past its lease keeps its namespace and Objects on its next renewal; only others' expired ones go", async () => {
    const schema = freshSchema();
    const store = await testStore(schema, { leaseMs: 300 });
    const mine = 'process:pid_00000000000000aa';
    const abandoned = 'process:pid_00000000000000bb';
    await store.declareNamespace(mine, { process: true });
    await store.declareNamespace(abandoned, { process: true });
    const [kept, keptOptions] = objectFor(mine, 'kept', { step: 1 });
    await store.create(kept, keptOptions);
    const [orphan, orphanOptions] = objectFor(abandoned, 'orphan', 'x');
    await store.create(orphan, orphanOptions);
    // The stall: no renewal for several lease lengths (a synchronous loop would block this process the same way).
    await sleep(1_200);
    // What the owner's renewal timer does first once its event loop runs again.
    await store.renewLeases([mine]);
    expect(await store.hasNamespace(mine)).toBe(true);
    expect(await store.get(mine, 'kept')).toEqual(kept);
    expect(await store.getByOid(kept.oid)).toEqual(kept);
    // The namespace nobody renewed was swept by the same statement.
    expect(await store.hasNamespace(abandoned)).toBe(false);
    expect(await store.getByOid(orphan.oid)).toBeUndefined();
    expect(await store.usage()).toEqual({ objects: 1, bytes: JSON.stringify(kept.payload).length });
    // The renewal gave a full lease again: still live well within it.
    expect(await store.listNamespaces()).toEqual([mine]);
  });

  it("another host's sweeps never take the namespace of a host whose event loop is blocked past its lease: it is alive", async () => {
    const schema = freshSchema();
    const leaseMs = 300;
    const sweeper = await testStore(schema, { leaseMs });
    const stalled = await startStoreHost({ connectionString: postgresUrl, schema, leaseMs });
    const innocent = 'process:pid_00000000000000ee';
    await stalled.call('declareNamespace', innocent, { process: true });
    const [kept, keptOptions] = objectFor(innocent, 'kept', { step: 1 });
    await stalled.call('create', kept, keptOptions);
    // The stalled host busy-waits for ten leases: no renewal can run there.
    const stall = stalled.call('blockEventLoop', leaseMs * 10);
    // Meanwhile every kind of sweep runs here, well past the stalled host's lease.
    await sleep(leaseMs * 2);
    for (let round = 0; round < 5; round++) {
      await sweeper.renewLeases(['process:pid_00000000000000ff']);
      await sweeper.usage();
      await sleep(leaseMs);
    }
    expect(await sweeper.get(innocent, 'kept')).toEqual(kept);
    await stall;
    // Back from the stall, the owner finds its Object and its namespace, and renews.
    expect(await stalled.call('get', innocent, 'kept')).toEqual(kept);
    await stalled.call('renewLeases', [innocent]);
    expect(await stalled.call('hasNamespace', innocent)).toBe(true);
    // Once the host is gone (its session, and so its lock, ended), its expired namespace is swept.
    stalled.child.kill('SIGKILL');
    await new Promise((resolve) => stalled.child.once('exit', resolve));
    const deadline = Date.now() + 60_000;
    while ((await sweeper.hasNamespace(innocent)) && Date.now() < deadline) await sleep(100);
    await sweeper.usage();
    expect(await sweeper.getByOid(kept.oid)).toBeUndefined();
  }, 90_000);
});
