import type { ConfigInput } from '@libos/core';
import { createPostgresObjectStore } from '@libos/object-store-postgres';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime, type ProcessTable } from '@libos/tools';
import { expect, it, onTestFinished } from 'vitest';
import { createPostgresProcessStore } from '../src/index.js';
import { describePostgres, freshSchema, postgresUrl } from './postgres.js';

const ALICE = 'token:alice';
const MALLORY = 'token:mallory';

/** Two runtimes on one workspace and one database: two hosts of a fleet. */
async function twoHosts(config: ConfigInput = {}): Promise<{ tables: ProcessTable[]; write(path: string, text: string): Promise<void> }> {
  const { provider, fixtures } = createMemfsTestbed();
  const [objects, state] = [freshSchema(), freshSchema()];
  const tables: ProcessTable[] = [];
  for (let host = 0; host < 2; host++) {
    const runtime = await createRuntime({
      provider,
      config,
      objectStore: await createPostgresObjectStore({ connectionString: postgresUrl, schema: objects }),
    });
    onTestFinished(() => runtime.close());
    tables.push(runtime.openProcessTable({ store: await createPostgresProcessStore({ connectionString: postgresUrl, schema: state }) }));
  }
  return { tables, write: (path, text) => fixtures.writeFile(path, text) };
}

async function ok(table: ProcessTable, principal: string, name: string, args: Record<string, unknown>) {
  const outcome = await table.call(principal, name, args);
  if (!outcome.ok) expect.fail(`${name} failed: ${JSON.stringify(outcome.error)}`);
  return outcome.result;
}

describePostgres('one agent on two hosts (ProcessTable on PostgreSQL)', () => {
  it('keeps the cwd and the process: Objects whichever host takes each call', async () => {
    const { tables, write } = await twoHosts();
    const [a, b] = tables as [ProcessTable, ProcessTable];
    await write('src/lib/a.txt', 'alpha');
    const handle = (await ok(a, ALICE, 'set_working_directory', { path: 'src' })).process as string;
    expect(await ok(b, ALICE, 'set_working_directory', { process: handle, path: 'lib' })).toEqual({ working_directory: 'src/lib', process: handle });
    expect(await ok(a, ALICE, 'get_working_directory', { process: handle })).toEqual({ working_directory: 'src/lib', process: handle });
    const created = await ok(a, ALICE, 'create_object_from_file', { process: handle, name: 'kept', path: 'a.txt' });
    expect(await ok(b, ALICE, 'write_object_to_file', { process: handle, name: 'kept', path: 'copy.txt' })).toMatchObject({
      oid: created.oid,
      path: 'src/lib/copy.txt',
    });
  });

  it('refuses the handle on every host to another principal, exactly as a guessed one', async () => {
    const { tables } = await twoHosts();
    const [a, b] = tables as [ProcessTable, ProcessTable];
    const handle = (await ok(a, ALICE, 'set_working_directory', { path: '.' })).process as string;
    const stolen = await b.call(MALLORY, 'get_working_directory', { process: handle });
    const guessed = await b.call(MALLORY, 'get_working_directory', { process: `proc_${'Z'.repeat(32)}` });
    expect(stolen).toEqual(guessed);
    expect(stolen).toMatchObject({ ok: false, error: { code: 'denied' } });
  });

  it('spends a grant of uses: 3 exactly three times across both hosts', async () => {
    const { tables, write } = await twoHosts({
      policy_id: 'fleet-test',
      grants: [{ path: '.', tree: true, rights: ['read'], mode: 'allow', uses: 3 }],
    });
    await write('a.txt', 'alpha');
    const handle = (await ok(tables[0]!, ALICE, 'set_working_directory', { path: '.' })).process as string;
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, index) => tables[index % 2]!.call(ALICE, 'read_text_file', { process: handle, path: 'a.txt' })),
    );
    // set_working_directory spent one read already.
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(2);
    expect(outcomes.filter((outcome) => !outcome.ok).every((outcome) => !outcome.ok && outcome.error.code === 'denied')).toBe(true);
  });
});
