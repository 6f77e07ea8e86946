import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL URL the tests may use freely (each test makes its own schema), or "" when there is none. */
    postgresUrl: string;
    /** Why there is no server, for the skip message; "" when there is one. */
    postgresMissing: string;
  }
}

const run = promisify(execFile);
const script = fileURLToPath(new URL('./throwaway-postgres.sh', import.meta.url));

/**
 * Gives the tests a PostgreSQL: the one named by LIBOS_TEST_DATABASE_URL (what `.ci/run` starts),
 * else a throwaway cluster of its own, stopped and removed at teardown. Without PostgreSQL and no
 * way to install it, the tests skip with the reason, except under CI, where that is a failure.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.LIBOS_TEST_DATABASE_URL;
  if (given !== undefined && given !== '') {
    project.provide('postgresUrl', given);
    project.provide('postgresMissing', '');
    return undefined;
  }
  if (!hasBinaries()) {
    try {
      await run('bash', [script, 'install'], { maxBuffer: 64 * 1024 * 1024 });
    } catch (error) {
      const reason =
        'PostgreSQL is not installed and could not be installed here; install it (apt-get install postgresql) ' +
        'or run the tests through `bash tooling/postgres/throwaway-postgres.sh run pnpm test`.';
      if (process.env.CI === 'true') throw new Error(`${reason} ${String(error)}`);
      process.stderr.write(`object-store-postgres tests skipped: ${reason}\n`);
      project.provide('postgresUrl', '');
      project.provide('postgresMissing', reason);
      return undefined;
    }
  }
  const { stdout } = await run('bash', [script, 'start']);
  const url = valueOf(stdout, 'LIBOS_TEST_DATABASE_URL');
  const directory = valueOf(stdout, 'LIBOS_TEST_POSTGRES_DIR');
  project.provide('postgresUrl', url);
  project.provide('postgresMissing', '');
  return async () => {
    await run('bash', [script, 'stop', directory]);
  };
}

function hasBinaries(): boolean {
  if (!existsSync('/usr/lib/postgresql')) return false;
  return readdirSync('/usr/lib/postgresql').some((version) => existsSync(`/usr/lib/postgresql/${version}/bin/initdb`));
}

function valueOf(output: string, key: string): string {
  const line = output.split('\n').find((candidate) => candidate.startsWith(`${key}=`));
  if (line === undefined) throw new Error(`throwaway-postgres.sh start printed no ${key}.`);
  return line.slice(key.length + 1);
}
