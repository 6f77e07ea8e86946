import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { objectFor } from './objects.js';
import { describePostgres, freshSchema, testStore } from './postgres.js';

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
});
