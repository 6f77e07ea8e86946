import { setTimeout as sleep } from 'node:timers/promises';
import { LibosError } from '@libos/core';
import { expect, it } from 'vitest';
import { objectFor } from './objects.js';
import { describePostgres, freshSchema, postgresUrl, testStore } from './postgres.js';
import { startStoreHost } from './store-host.js';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return LibosError.is(error) ? error.code : String(error);
  }
}

describePostgres('two hosts (two OS processes) on one database', () => {
  it('an Object created on one host is read, listed and found by oid on the other', async () => {
    const schema = freshSchema();
    const here = await testStore(schema);
    const there = await startStoreHost({ connectionString: postgresUrl, schema });
    await here.declareNamespace('shared');
    const [plan, planOptions] = objectFor('shared', 'plan', { content: 'step 1\u0000' });
    await there.call('create', plan, planOptions);
    expect(await here.get('shared', 'plan')).toEqual(plan);
    expect(await there.call('getByOid', plan.oid)).toEqual(plan);
    const [result, resultOptions] = objectFor('shared', 'result', 'done');
    await here.create(result, resultOptions);
    expect(await there.call('get', 'shared', 'result')).toEqual(result);
    expect(await there.call('listNames', 'shared')).toEqual(['plan', 'result']);
  });

  it('of 40 creators of one name spread over both hosts at once, exactly one wins', async () => {
    const schema = freshSchema();
    const here = await testStore(schema);
    const there = await startStoreHost({ connectionString: postgresUrl, schema });
    await here.declareNamespace('shared');
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        const [object, options] = objectFor('shared', 'the-plan', { index });
        if (index % 2 === 0) return codeOf(here.create(object, options));
        const settled = await there.settle('create', object, options);
        return settled.ok ? 'ok' : settled.code;
      }),
    );
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'name_taken')).toHaveLength(39);
    expect(await here.listNames('shared')).toEqual(['the-plan']);
    expect((await here.usage()).objects).toBe(1);
  });

  it('uses: 3 under one key, 30 racing spends across both hosts: exactly 3 succeed', async () => {
    const schema = freshSchema();
    const here = await testStore(schema);
    const there = await startStoreHost({ connectionString: postgresUrl, schema });
    const key = 'fleet\u0000grant:notes.txt';
    const spends = await Promise.all(
      Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? here.spendUses(key, 1, 3) : there.call('spendUses', key, 1, 3))),
    );
    expect(spends.filter((spent) => spent === true)).toHaveLength(3);
    expect(await here.spentUses(key)).toBe(3);
    expect(await there.call('spendUses', 'other-fleet\u0000grant:notes.txt', 1, 3)).toBe(true);
    expect(await here.spendUses(key, 1, 3)).toBe(false);
    await there.call('refundUses', key, 1);
    expect(await here.spendUses(key, 1, 3)).toBe(true);
    expect(await here.spendUses(key, 1, 3)).toBe(false);
  });

  it('the quota counts what the database holds: 20 creators over both hosts, a quota of 5, exactly 5 Objects', async () => {
    const schema = freshSchema();
    const here = await testStore(schema);
    const there = await startStoreHost({ connectionString: postgresUrl, schema });
    await here.declareNamespace('shared');
    const quota = { maxObjectsCount: 5, maxObjectsBytes: 1_000_000 };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const [object, options] = objectFor('shared', `o${index}`, index, quota);
        if (index % 2 === 0) return codeOf(here.create(object, options));
        const settled = await there.settle('create', object, options);
        return settled.ok ? 'ok' : settled.code;
      }),
    );
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome === 'quota_exceeded')).toHaveLength(15);
    const names = await here.listNames('shared');
    expect(names).toHaveLength(5);
    const bytes = (await Promise.all(names.map((name) => here.get('shared', name)))).reduce(
      (sum, object) => sum + JSON.stringify(object!.payload).length,
      0,
    );
    expect(await here.usage()).toEqual({ objects: 5, bytes });
  });

  it('a declared namespace and its Objects survive a restart of both hosts', async () => {
    const schema = freshSchema();
    const first = await testStore(schema);
    const second = await startStoreHost({ connectionString: postgresUrl, schema });
    await first.declareNamespace('shared');
    const [kept, options] = objectFor('shared', 'kept', 'x');
    await second.call('create', kept, options);
    await first.close();
    second.child.stdin!.end();
    await new Promise((resolve) => second.child.once('exit', resolve));
    const reopened = await testStore(schema);
    expect(await reopened.get('shared', 'kept')).toEqual(kept);
    expect(await reopened.listNamespaces()).toEqual(['shared']);
    expect(await reopened.usage()).toEqual({ objects: 1, bytes: 3 });
  });

  it("a killed host's process namespace is dropped once its lease expires; a renewed one stays", async () => {
    const schema = freshSchema();
    const here = await testStore(schema, { leaseMs: 2_000 });
    const there = await startStoreHost({ connectionString: postgresUrl, schema, leaseMs: 2_000 });
    const mine = 'process:pid_00000000000000cc';
    const theirs = 'process:pid_00000000000000dd';
    await here.declareNamespace(mine, { process: true });
    const [alive, aliveOptions] = objectFor(mine, 'alive', 1);
    await here.create(alive, aliveOptions);
    await there.call('declareNamespace', theirs, { process: true });
    const [orphan, orphanOptions] = objectFor(theirs, 'orphan', 'z'.repeat(1000));
    await there.call('create', orphan, orphanOptions);
    there.child.kill('SIGKILL');
    await new Promise((resolve) => there.child.once('exit', resolve));
    // Each round renews this host's namespace first, so only the dead host's can expire, however slow the machine.
    const deadline = Date.now() + 60_000;
    while ((await here.hasNamespace(theirs)) && Date.now() < deadline) {
      await here.renewLeases([mine]);
      await sleep(200);
    }
    await here.renewLeases([mine]);
    expect(await here.hasNamespace(theirs)).toBe(false);
    expect(await here.get(theirs, 'orphan')).toBeUndefined();
    expect(await here.getByOid(orphan.oid)).toBeUndefined();
    expect(await here.listNamespaces()).toEqual([mine]);
    expect(await here.get(mine, 'alive')).toEqual(alive);
    expect(await here.usage()).toEqual({ objects: 1, bytes: 1 });
    // The expired name is free again, with none of its old Objects.
    await here.declareNamespace(theirs, { process: true });
    expect(await here.listNames(theirs)).toEqual([]);
  });
});
