import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';
import { startMcpSession } from './support/mcp-session.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresMissing: string;
  }
}

// Given by tooling/postgres/global-setup.ts: CI's server, or a throwaway cluster of its own.
const postgresUrl = inject('postgresUrl');
const missing = inject('postgresMissing');

/** A database of its own for one test (the CLI uses the store's default schema), dropped at the end. */
async function freshDatabase(): Promise<string> {
  const name = `libos_cli_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  onTestFinished(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function configFile(): Promise<string> {
  const directory = await temporaryDirectory();
  onTestFinished(() => directory.remove());
  const file = join(directory.path, 'libos.config.json');
  await writeFile(file, JSON.stringify({ namespaces: [{ name: 'shared', rights: ['read', 'write'] }], policy_id: 'fleet' }));
  return file;
}

(missing === '' ? describe : describe.skip)(`libos mcp --objects postgres://${missing === '' ? '' : ` (skipped: ${missing})`}`, () => {
  it('two servers share Objects through the database, and they outlive both', async () => {
    const database = await freshDatabase();
    const config = await configFile();
    const args = ['--provider', 'memfs', '--config', config, '--objects', database];
    const planner = await startMcpSession(args);
    const worker = await startMcpSession(args);
    onTestFinished(() => Promise.allSettled([planner.close(), worker.close()]).then(() => undefined));
    expect((await planner.call('write_text_file', { path: 'plan.md', content: 'step 1\u0000\u2028\n' })).isError).toBeFalsy();
    const created = await planner.call('create_object_from_file', { name: 'plan', path: 'plan.md', namespace: 'shared' });
    expect(created.isError).toBeFalsy();
    const again = await worker.call('create_object_from_file', { name: 'plan', path: 'plan.md', namespace: 'shared' });
    expect(again.isError).toBe(true);
    const exported = await worker.call('write_object_to_file', { name: 'plan', path: 'copy.md', namespace: 'shared' });
    expect(exported.isError).toBeFalsy();
    expect((await worker.call('read_text_file', { path: 'copy.md' })).structuredContent).toMatchObject({ content: 'step 1\u0000\u2028\n' });
    await planner.close();
    await worker.close();

    const later = await startMcpSession(args);
    onTestFinished(() => later.close());
    expect((await later.call('write_object_to_file', { name: 'plan', path: 'again.md', namespace: 'shared' })).isError).toBeFalsy();
  });

  it('a database it cannot open is a usage error (status 2, one line) that never shows the password', async () => {
    const config = await configFile();
    const url = new URL(postgresUrl);
    url.username = 'nobody';
    url.password = 'hunter2-secret';
    url.pathname = '/no_such_database';
    const run = await runLibos(['call', 'get_working_directory', '--provider', 'memfs', '--config', config, '--objects', url.toString()]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('cannot open the Object store');
    expect(run.stderr).not.toContain('hunter2-secret');
  });
});
