import { setTimeout as sleep } from 'node:timers/promises';
import type { CallResult, ConfigInput } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import pg from 'pg';
import { expect, it, onTestFinished } from 'vitest';
import { createPostgresObjectStore } from '../src/index.js';
import { describePostgres, freshSchema, postgresUrl } from './postgres.js';
import { startRuntimeHost } from './runtime-host.js';

// Two runtimes that share one fleet policy: reads everywhere, writes under out/, and three uses of notes.txt.
const CONFIG: ConfigInput = {
  policy_id: 'fleet',
  namespaces: [{ name: 'shared', rights: ['read', 'write'] }],
  grants: [
    { path: '.', tree: true, rights: ['read'] },
    { path: 'out', tree: true, rights: ['write'] },
    { path: 'in', tree: true, rights: ['write'] },
    { path: 'notes.txt', rights: ['write'], uses: 3 },
  ],
};

async function localRuntime(schema: string, leaseMs?: number) {
  const objectStore = await createPostgresObjectStore({ connectionString: postgresUrl, schema, ...(leaseMs === undefined ? {} : { leaseMs }) });
  const runtime = await createRuntime({ provider: createMemfsProvider(), config: CONFIG, objectStore });
  onTestFinished(() => runtime.close().catch(() => undefined));
  return runtime;
}

function ok(result: CallResult): unknown {
  if (!result.ok) throw new Error(`call failed: ${JSON.stringify(result.error)}`);
  return result.result;
}

describePostgres('two runtimes in two OS processes on one database', () => {
  it('an Object created in one is exported by the other, every character intact', async () => {
    const schema = freshSchema();
    const here = await localRuntime(schema);
    const there = await startRuntimeHost({ connectionString: postgresUrl, schema }, CONFIG);
    const planner = await there.spawn();
    const text = 'step 1\u0000\r\n\uFEFF\u2028 ✓\n';
    ok(await there.call(planner, 'write_text_file', { path: 'in/plan.md', content: text }));
    ok(await there.call(planner, 'create_object_from_file', { name: 'plan', path: 'in/plan.md', namespace: 'shared', object_type: 'plan' }));
    const worker = here.spawn();
    const exported = ok(await worker.call('write_object_to_file', { name: 'plan', path: 'out/plan.md', namespace: 'shared' }));
    expect(exported).toMatchObject({ name: 'plan', namespace: 'shared', created: true });
    const read = ok(await worker.call('read_text_file', { path: 'out/plan.md' })) as { content: string };
    expect(read.content).toBe(text);
  });

  it('40 creators of one name spread over both, at once: exactly one wins', async () => {
    const schema = freshSchema();
    const here = await localRuntime(schema);
    const there = await startRuntimeHost({ connectionString: postgresUrl, schema }, CONFIG);
    const localProcess = here.spawn();
    ok(await localProcess.call('write_text_file', { path: 'in/x.txt', content: 'here' }));
    const remoteProcess = await there.spawn();
    ok(await there.call(remoteProcess, 'write_text_file', { path: 'in/x.txt', content: 'there' }));
    const args = { name: 'winner', path: 'in/x.txt', namespace: 'shared' };
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        index % 2 === 0 ? localProcess.call('create_object_from_file', args) : there.call(remoteProcess, 'create_object_from_file', args),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const losers = results.filter((result): result is Extract<CallResult, { ok: false }> => !result.ok);
    expect(losers.map((result) => result.error.code)).toEqual(Array(39).fill('name_taken'));
    expect(losers.every((result) => result.error.effect === 'none')).toBe(true);
  });

  it('uses: 3 under one policy_id, 30 racing calls across both: exactly 3 succeed', async () => {
    const schema = freshSchema();
    const here = await localRuntime(schema);
    const there = await startRuntimeHost({ connectionString: postgresUrl, schema }, CONFIG);
    const localProcess = here.spawn();
    const remoteProcess = await there.spawn();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) => {
        const args = { path: 'notes.txt', content: `note ${index}` };
        return index % 2 === 0 ? localProcess.call('write_text_file', args) : there.call(remoteProcess, 'write_text_file', args);
      }),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(3);
    expect(results.filter((result) => !result.ok).every((result) => !result.ok && result.error.code === 'denied')).toBe(true);
  });

  it('a declared namespace survives a restart of both runtimes', async () => {
    const schema = freshSchema();
    const first = await localRuntime(schema);
    const second = await startRuntimeHost({ connectionString: postgresUrl, schema }, CONFIG);
    const remoteProcess = await second.spawn();
    ok(await second.call(remoteProcess, 'write_text_file', { path: 'in/keep.txt', content: 'kept across restarts' }));
    ok(await second.call(remoteProcess, 'create_object_from_file', { name: 'keep', path: 'in/keep.txt', namespace: 'shared' }));
    await first.close();
    await second.stop();
    const reopened = await localRuntime(schema);
    const reader = reopened.spawn();
    ok(await reader.call('write_object_to_file', { name: 'keep', path: 'out/keep.txt', namespace: 'shared' }));
    expect((ok(await reader.call('read_text_file', { path: 'out/keep.txt' })) as { content: string }).content).toBe('kept across restarts');
  });

  it("a closed runtime's process namespaces are gone at once; a killed runtime's, once their lease expires", async () => {
    const schema = freshSchema();
    const here = await localRuntime(schema, 2_000);
    const closing = await startRuntimeHost({ connectionString: postgresUrl, schema, leaseMs: 2_000 }, CONFIG);
    const there = await startRuntimeHost({ connectionString: postgresUrl, schema, leaseMs: 2_000 }, CONFIG);
    const ended = await closing.spawn();
    const killed = await there.spawn();
    for (const [host, pid] of [
      [closing, ended],
      [there, killed],
    ] as const) {
      ok(await host.call(pid, 'write_text_file', { path: `in/${pid}.txt`, content: pid }));
      ok(await host.call(pid, 'create_object_from_file', { name: 'mine', path: `in/${pid}.txt` }));
    }
    expect(await here.objects.hasNamespace(`process:${ended}`)).toBe(true);
    await closing.stop();
    expect(await here.objects.hasNamespace(`process:${ended}`)).toBe(false);
    expect(await here.objects.hasNamespace(`process:${killed}`)).toBe(true);
    there.child.kill('SIGKILL');
    const deadline = Date.now() + 60_000;
    while ((await here.objects.hasNamespace(`process:${killed}`)) && Date.now() < deadline) await sleep(200);
    expect(await here.objects.hasNamespace(`process:${killed}`)).toBe(false);
    // Gone from the database too, not only hidden: its rows and its share of the quota are freed.
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    onTestFinished(() => admin.end());
    expect((await here.objects.usage()).objects).toBe(0);
    expect((await admin.query(`SELECT count(*)::int AS n FROM "${schema}".objects`)).rows[0].n).toBe(0);
    expect((await admin.query(`SELECT count(*)::int AS n FROM "${schema}".namespaces WHERE lease_expires_at IS NOT NULL`)).rows[0].n).toBe(0);
  });
});
