import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkspacePath } from '@libos/core';
import { expect, it } from 'vitest';
import { type Host, startHost } from './host.js';
import { SHARED_SCHEMA, describePostgres, freshWorkspace, postgresUrl, testPool, testProvider } from './postgres.js';

const p = (path: string) => path as WorkspacePath;
// 2 x 2,000 guarded increments locally; 2 x 500 under CI, where the machine is shared and slower.
const INCREMENTS = process.env.LIBOS_STRESS === '1' ? 2000 : 500; // more under pnpm test:stress

function oneHost(workspace: string, applicationName = 'libos-test-host'): Promise<Host> {
  const connectionString = `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}application_name=${applicationName}`;
  return startHost({ connectionString, schema: SHARED_SCHEMA, workspace });
}

function twoHosts(workspace: string): Promise<[Host, Host]> {
  return Promise.all([oneHost(workspace), oneHost(workspace)]);
}

describePostgres('two OS processes on one workspace', () => {
  it(`${INCREMENTS} guarded increments from each of two processes end at exactly twice that`, async () => {
    const workspace = freshWorkspace();
    const provider = testProvider({ workspace });
    await provider.writeFile(p('counter'), new TextEncoder().encode('0'), { overwrite: false });
    const hosts = await twoHosts(workspace);
    const results = await Promise.all(
      hosts.map((host) => host.send<{ done: number; conflicts: number }>('increment', { path: 'counter', count: INCREMENTS })),
    );
    expect(results.map((result) => result.done)).toEqual([INCREMENTS, INCREMENTS]);
    const { bytes } = await provider.readFile(p('counter'), { maxBytes: 100 });
    expect(new TextDecoder().decode(bytes)).toBe(String(2 * INCREMENTS));
    await Promise.all(hosts.map((host) => host.stop()));
  }, 600_000);

  it('of 40 racing creations of one name in two processes exactly one wins, and its bytes stay', async () => {
    const workspace = freshWorkspace();
    const provider = testProvider({ workspace });
    const hosts = await twoHosts(workspace);
    for (let round = 0; round < 3; round++) {
      const path = `race/${round}/name`;
      const outcomes = (
        await Promise.all(hosts.map((host, index) => host.send<string[]>('create', { path, attempts: 20, tag: `host${index}` })))
      ).flat();
      const winners = outcomes.filter((outcome) => outcome.startsWith('host'));
      expect(winners).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'already_exists')).toHaveLength(39);
      const { bytes } = await provider.readFile(p(path), { maxBytes: 100 });
      expect(new TextDecoder().decode(bytes)).toBe(winners[0]);
    }
    await Promise.all(hosts.map((host) => host.stop()));
  }, 120_000);

  it('a reader in another process never sees a partial file while a multi-chunk file is replaced', async () => {
    const workspace = freshWorkspace();
    const provider = testProvider({ workspace });
    await provider.writeFile(p('f'), new Uint8Array(2 * 1024 * 1024 + 333).fill(0x61), { overwrite: false });
    const [writer, reader] = await twoHosts(workspace);
    const watching = reader.send<{ reads: number; torn: number[] }>('watch', { path: 'f' });
    await writer.send('replace', { path: 'f', rounds: 30 });
    await reader.send('stop');
    const { reads, torn } = await watching;
    expect(torn).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    await Promise.all([writer.stop(), reader.stop()]);
  }, 120_000);

  it('a SIGKILL during a recursive delete leaves the whole tree or none of it', async () => {
    const workspace = freshWorkspace();
    const provider = testProvider({ workspace });
    await provider.open();
    const pool = testPool(2);
    const applicationName = `libos-deleter-${workspace}`;
    const outcomes: string[] = [];
    for (let round = 0; round < 6; round++) {
      const top = `tree${round}`;
      const expected = await buildTree(pool, workspace, top);
      const deleter = await oneHost(workspace, applicationName);
      const deleting = deleter.send('delete', { path: top }).catch(() => 'killed');
      // Rounds kill at different moments: as soon as the delete is seen running in the database,
      // or after a delay that grows round by round (the last ones usually let it commit).
      if (round % 2 === 0) await waitForActiveQuery(pool, applicationName);
      else await sleep(10 ** (round / 2 + 0.5));
      deleter.child.kill('SIGKILL');
      await deleter.exited;
      await deleting;
      // The killed connection's transaction is rolled back, or was committed before the kill.
      await waitForNoBackend(pool, applicationName);
      const after = await countTree(pool, workspace, top);
      expect([0, expected], `round ${round}`).toContain(after);
      expect((await provider.stat(p(top))).kind).toBe(after === 0 ? 'missing' : 'directory');
      outcomes.push(after === 0 ? 'deleted' : 'whole');
    }
    // The quota count still matches what the workspace holds.
    const { rows } = await pool.query(
      `SELECT w.used_bytes, (SELECT coalesce(sum(size_bytes), 0) FROM "${SHARED_SCHEMA}".entries e WHERE e.workspace_id = w.id) AS held
       FROM "${SHARED_SCHEMA}".workspaces w WHERE w.name = $1`,
      [workspace],
    );
    expect(rows[0].used_bytes).toBe(rows[0].held);
    expect(outcomes).toHaveLength(6);
    process.stdout.write(`recursive deletes killed: ${outcomes.join(', ')}\n`);
  }, 300_000);
});

/** Builds `top` with 40 directories of 100 small files each, in a few statements; returns its entry count. */
async function buildTree(pool: ReturnType<typeof testPool>, workspace: string, top: string): Promise<number> {
  const s = `"${SHARED_SCHEMA}"`;
  const { rows } = await pool.query<{ count: number }>(
    `WITH ws AS (SELECT w.id, e.id AS root FROM ${s}.workspaces w JOIN ${s}.entries e ON e.workspace_id = w.id AND e.parent_id IS NULL WHERE w.name = $1),
     top AS (INSERT INTO ${s}.entries (workspace_id, parent_id, name, kind, mode) SELECT id, root, convert_to($2, 'UTF8'), 'd', 493 FROM ws RETURNING id, workspace_id),
     dirs AS (INSERT INTO ${s}.entries (workspace_id, parent_id, name, kind, mode)
              SELECT top.workspace_id, top.id, convert_to('d' || g, 'UTF8'), 'd', 493 FROM top, generate_series(1, 40) g RETURNING id, workspace_id),
     files AS (INSERT INTO ${s}.entries (workspace_id, parent_id, name, kind, mode, size_bytes, sha256)
              SELECT dirs.workspace_id, dirs.id, convert_to('f' || g, 'UTF8'), 'f', 420, 0, $3 FROM dirs, generate_series(1, 100) g RETURNING id)
     SELECT (SELECT count(*) FROM files)::int + 41 AS count`,
    [workspace, top, createHash('sha256').digest()],
  );
  return rows[0]?.count ?? 0;
}

async function countTree(pool: ReturnType<typeof testPool>, workspace: string, top: string): Promise<number> {
  const s = `"${SHARED_SCHEMA}"`;
  const { rows } = await pool.query<{ count: number }>(
    `WITH RECURSIVE tree(id) AS (
       SELECT e.id FROM ${s}.workspaces w JOIN ${s}.entries r ON r.workspace_id = w.id AND r.parent_id IS NULL
         JOIN ${s}.entries e ON e.parent_id = r.id AND e.name = convert_to($2, 'UTF8') WHERE w.name = $1
       UNION ALL SELECT x.id FROM ${s}.entries x JOIN tree t ON x.parent_id = t.id)
     SELECT count(*)::int AS count FROM tree`,
    [workspace, top],
  );
  return rows[0]?.count ?? 0;
}

async function waitForActiveQuery(pool: ReturnType<typeof testPool>, applicationName: string): Promise<void> {
  for (let attempt = 0; attempt < 2000; attempt++) {
    const { rowCount } = await pool.query(
      `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND state = 'active' AND (query LIKE '%DELETE FROM%' OR query LIKE 'FETCH%' OR query LIKE 'DECLARE%')`,
      [applicationName],
    );
    if ((rowCount ?? 0) > 0) return;
    await sleep(2);
  }
}

async function waitForNoBackend(pool: ReturnType<typeof testPool>, applicationName: string): Promise<void> {
  for (;;) {
    const { rowCount } = await pool.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1`, [applicationName]);
    if ((rowCount ?? 0) === 0) return;
    await sleep(20);
  }
}
