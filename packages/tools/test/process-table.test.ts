import type { CallResult, ProcessStoreV1, ToolFailure } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryProcessStore, createRuntime, type Runtime } from '../src/index.js';

const ALICE = 'token:alice';
const MALLORY = 'token:mallory';
const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
});

async function bed(store: ProcessStoreV1 = createMemoryProcessStore(), idleMs?: number) {
  const { provider, fixtures } = createMemfsTestbed();
  const runtime = await createRuntime({ provider });
  runtimes.push(runtime);
  await fixtures.makeDirectory('src/lib');
  await fixtures.writeFile('src/lib/a.txt', 'alpha');
  const table = runtime.openProcessTable({ store, ...(idleMs === undefined ? {} : { idleMs }) });
  const ok = async (principal: string, name: string, args: Record<string, unknown>) => {
    const outcome = await table.call(principal, name, args);
    if (!outcome.ok) expect.fail(`${name} failed: ${JSON.stringify(outcome.error)}`);
    return outcome.result;
  };
  const fail = async (principal: string, name: string, args: unknown): Promise<ToolFailure> => {
    const outcome: CallResult = await table.call(principal, name, args);
    if (outcome.ok) expect.fail(`${name} succeeded: ${JSON.stringify(outcome.result)}`);
    return outcome.error;
  };
  return { runtime, table, fixtures, ok, fail };
}

describe('the process as data (ProcessTable)', () => {
  it('mints a handle with set_working_directory and keeps the cwd for every later call that names it', async () => {
    const { ok } = await bed();
    const started = await ok(ALICE, 'set_working_directory', { path: 'src' });
    expect(started).toMatchObject({ working_directory: 'src' });
    const handle = started.process as string;
    expect(handle).toMatch(/^proc_[A-Za-z0-9_-]{32}$/);
    expect(await ok(ALICE, 'get_working_directory', { process: handle })).toEqual({ working_directory: 'src', process: handle });
    expect(await ok(ALICE, 'set_working_directory', { process: handle, path: 'lib' })).toEqual({ working_directory: 'src/lib', process: handle });
    expect(await ok(ALICE, 'read_text_file', { process: handle, path: 'a.txt' })).toMatchObject({ path: 'src/lib/a.txt', content: 'alpha' });
  });

  it('runs a call without process in a process of its own at "."', async () => {
    const { ok } = await bed();
    const handle = (await ok(ALICE, 'set_working_directory', { path: 'src' })).process;
    expect(await ok(ALICE, 'get_working_directory', {})).toEqual({ working_directory: '.' });
    expect(await ok(ALICE, 'read_text_file', { path: 'src/lib/a.txt' })).toMatchObject({ content: 'alpha' });
    expect(await ok(ALICE, 'get_working_directory', { process: handle })).toEqual({ working_directory: 'src', process: handle });
  });

  it('refuses a handle named by another principal exactly as one that never existed, and lets nothing of it through', async () => {
    const { ok, fail } = await bed();
    const handle = (await ok(ALICE, 'set_working_directory', { path: 'src' })).process as string;
    const stolen = await fail(MALLORY, 'read_text_file', { process: handle, path: 'lib/a.txt' });
    const guessed = await fail(MALLORY, 'read_text_file', { process: `proc_${'A'.repeat(32)}`, path: 'lib/a.txt' });
    const malformed = await fail(MALLORY, 'read_text_file', { process: 'pid_0000000000000000', path: 'lib/a.txt' });
    expect(stolen).toEqual(guessed);
    expect(malformed).toEqual(guessed);
    expect(stolen).toMatchObject({ code: 'denied', effect: 'none', details: {} });
    expect(JSON.stringify(stolen)).not.toContain(handle);
    // Moving it is refused the same way, and the owner's cwd did not move.
    expect(await fail(MALLORY, 'set_working_directory', { process: handle, path: '.' })).toEqual(guessed);
    expect(await ok(ALICE, 'get_working_directory', { process: handle })).toEqual({ working_directory: 'src', process: handle });
  });

  it('refuses an expired handle as one that never existed, and the sweep drops its namespace', async () => {
    const { runtime, ok, fail, fixtures } = await bed(createMemoryProcessStore(), 1_000);
    await fixtures.writeFile('note.txt', 'kept');
    const handle = (await ok(ALICE, 'set_working_directory', { path: '.' })).process as string;
    await ok(ALICE, 'create_object_from_file', { process: handle, name: 'n', path: 'note.txt' });
    const namespaces = (await runtime.objects.listNamespaces()).filter((namespace) => namespace.startsWith('process:'));
    expect(namespaces).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const expired = await fail(ALICE, 'get_working_directory', { process: handle });
    expect(expired).toEqual(await fail(ALICE, 'get_working_directory', { process: `proc_${'B'.repeat(32)}` }));
    await expect.poll(() => runtime.objects.hasNamespace(namespaces[0]!), { timeout: 5_000 }).toBe(false);
  });

  it('keeps Objects in process: with the handle, across calls, and nobody else reaches them', async () => {
    const { ok, fail, fixtures } = await bed();
    await fixtures.writeFile('note.txt', 'kept');
    const handle = (await ok(ALICE, 'set_working_directory', { path: '.' })).process as string;
    const created = await ok(ALICE, 'create_object_from_file', { process: handle, name: 'n', path: 'note.txt' });
    expect(await ok(ALICE, 'write_object_to_file', { process: handle, name: 'n', path: 'copy.txt' })).toMatchObject({ oid: created.oid });
    // Another principal's own process sees that namespace exactly as one that does not exist.
    const other = (await ok(MALLORY, 'set_working_directory', { path: '.' })).process as string;
    const foreign = await fail(MALLORY, 'write_object_to_file', { process: other, namespace: created.namespace, name: 'n', path: 'x.txt' });
    expect(foreign).toMatchObject({ code: 'namespace_not_found' });
    const absent = await fail(MALLORY, 'write_object_to_file', {
      process: other,
      namespace: 'process:pid_0123456789abcdef',
      name: 'n',
      path: 'x.txt',
    });
    expect(foreign.message.replace(/pid_[0-9a-f]{16}/u, 'PID')).toBe(absent.message.replace(/pid_[0-9a-f]{16}/u, 'PID'));
    // A call without process has a namespace of its own that ends with it.
    expect(await fail(ALICE, 'write_object_to_file', { name: 'n', path: 'y.txt' })).toMatchObject({ code: 'object_not_found' });
  });

  it('refuses a process that is not a string, and a set_working_directory that fails mints nothing', async () => {
    const { ok, fail } = await bed();
    expect(await fail(ALICE, 'get_working_directory', { process: 7 })).toMatchObject({ code: 'invalid_arguments', effect: 'none' });
    expect(await fail(ALICE, 'set_working_directory', { path: 'missing' })).toMatchObject({ code: 'not_found' });
    expect((await ok(ALICE, 'set_working_directory', { path: 'src' })).process).toBeDefined();
  });

  it('publishes process in every input schema and in the working-directory results, which the results match', async () => {
    const { table, ok } = await bed();
    const ajv = new Ajv({ strict: true });
    for (const tool of table.tools) expect((tool.inputSchema.properties as Record<string, unknown>).process).toMatchObject({ type: 'string' });
    const set = table.tools.find((tool) => tool.name === 'set_working_directory')!;
    const result = await ok(ALICE, 'set_working_directory', { path: 'src' });
    expect(ajv.validate(set.outputSchema, result)).toBe(true);
    expect(set.outputSchema.required).toContain('process');
  });

  it('leaves the runtime and its spawned processes exactly as they were', async () => {
    const { runtime, table } = await bed();
    const process = runtime.spawn();
    expect(process.tools).not.toBe(table.tools);
    for (const tool of process.tools) expect(tool.inputSchema.properties).not.toHaveProperty('process');
    expect((await process.call('get_working_directory', { process: 'x' } as never)).ok).toBe(false);
  });
});
