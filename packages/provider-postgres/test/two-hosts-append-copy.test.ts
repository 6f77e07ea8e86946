import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkspacePath } from '@libos/core';
import { expect, it } from 'vitest';
import { type Host, startHost } from './host.js';
import { SHARED_SCHEMA, describePostgres, freshWorkspace, postgresUrl, testPool, testProvider } from './postgres.js';

const p = (path: string) => path as WorkspacePath;
// Appends per process: 1000 under `pnpm test:stress` (LIBOS_STRESS=1), 300 in the default run.
const APPENDS = process.env.LIBOS_STRESS === '1' ? 1000 : 300;

function twoHosts(workspace: string): Promise<[Host, Host]> {
  const host = () => startHost({ connectionString: postgresUrl, schema: SHARED_SCHEMA, workspace });
  return Promise.all([host(), host()]);
}

/** Whether the workspace's quota count still equals the bytes its files hold. */
async function quotaHolds(workspace: string): Promise<boolean> {
  const { rows } = await testPool(1).query(
    `SELECT w.used_bytes = (SELECT coalesce(sum(size_bytes), 0) FROM "${SHARED_SCHEMA}".entries e WHERE e.workspace_id = w.id) AS holds
     FROM "${SHARED_SCHEMA}".workspaces w WHERE w.name = $1`,
    [workspace],
  );
  return rows[0]?.holds === true;
}

describePostgres('appends and copies from two OS processes', () => {
  it(`${APPENDS} appends from each of two processes (4 at once in each) land every line exactly once, none torn`, async () => {
    const workspace = freshWorkspace();
    const provider = testProvider({ workspace });
    const hosts = await twoHosts(workspace);
    // Neither creates the file first: the racing create: true appends decide who makes it.
    const counts = await Promise.all(
      hosts.map((host, index) => host.send<number>('append', { path: 'log/race.txt', count: APPENDS, tag: `h${index}`, lanes: 4 })),
    );
    expect(counts).toEqual([APPENDS, APPENDS]);
    const { bytes, truncated } = await provider.readFile(p('log/race.txt'), { maxBytes: 1 << 20 });
    expect(truncated).toBe(false);
    const lines = new TextDecoder().decode(bytes).split('\n');
    expect(lines.pop()).toBe('');
    const expected = [0, 1].flatMap((host) => Array.from({ length: APPENDS }, (_, n) => `h${host}-${n}`));
    expect(lines.filter((line) => !/^h[01]-\d+$/.test(line))).toEqual([]);
    expect(lines.length).toBe(2 * APPENDS);
    expect([...lines].sort()).toEqual(expected.sort());
    // The append cleared the stored hash; a guarded write recomputes it from the chunks.
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(await provider.writeFile(p('log/race.txt'), bytes, { overwrite: true, expectedSha256: sha })).toEqual({ created: false });
    expect(await quotaHolds(workspace)).toBe(true);
    await Promise.all(hosts.map((host) => host.stop()));
  }, 300_000);

  it('a process killed while it appends leaves only whole lines, each once', async () => {
    const workspace = freshWorkspace();
    const provider = testProvider({ workspace });
    const seen: number[] = [];
    // Each round kills at a later moment: once the file holds at least that many bytes.
    for (const [round, killAt] of [10, 400, 3000].entries()) {
      const path = p(`killed-${round}.txt`);
      const host = await startHost({ connectionString: postgresUrl, schema: SHARED_SCHEMA, workspace });
      const appending = host.send('append', { path, count: 100_000, tag: 'k', lanes: 4 }).catch(() => 'killed');
      for (;;) {
        const status = await provider.stat(path);
        if (status.kind === 'file' && (status.sizeBytes ?? 0) >= killAt) break;
        await sleep(2);
      }
      host.child.kill('SIGKILL');
      await host.exited;
      expect(await appending).toBe('killed');
      // What the killed connection had in flight is rolled back or committed, never in part: any
      // snapshot, before or after the server notices, holds whole lines only.
      const { bytes } = await provider.readFile(path, { maxBytes: 1 << 20 });
      const text = new TextDecoder().decode(bytes);
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.slice(0, -1).split('\n');
      expect(lines.filter((line) => !/^k-\d+$/.test(line))).toEqual([]);
      expect(new Set(lines).size).toBe(lines.length);
      seen.push(lines.length);
    }
    expect(await quotaHolds(workspace)).toBe(true);
    process.stdout.write(`lines kept by killed appenders: ${seen.join(', ')}\n`);
  }, 300_000);

  it('a copy racing replaces of its source in another process is the old file or the new, never a mix', async () => {
    const workspace = freshWorkspace();
    const provider = testProvider({ workspace });
    // The versions host.mjs alternates between: several chunks each, different sizes and bytes.
    const versionA = new Uint8Array(2 * 1024 * 1024 + 333).fill(0x61);
    const versionB = new Uint8Array(1024 * 1024 + 77).fill(0x62);
    await provider.writeFile(p('f'), versionA, { overwrite: false });
    const [writer, copier] = await twoHosts(workspace);
    const rounds = 30;
    await Promise.all([writer.send('replace', { path: 'f', rounds }), copier.send('copies', { from: 'f', rounds })]);
    const seen = new Set<string>();
    for (let round = 0; round < rounds; round++) {
      const { bytes, truncated } = await provider.readFile(p(`copies/${round}`), { maxBytes: 4 * 1024 * 1024 });
      expect(truncated).toBe(false);
      const version = [versionA, versionB].find((candidate) => Buffer.from(candidate).equals(Buffer.from(bytes)));
      expect(version, `copy ${round} has ${bytes.length} bytes`).toBeDefined();
      seen.add(version === versionA ? 'A' : 'B');
      // The copy carries a hash that matches its bytes: a guarded write with it goes through.
      const sha = createHash('sha256').update(bytes).digest('hex');
      await provider.writeFile(p(`copies/${round}`), bytes, { overwrite: true, expectedSha256: sha });
    }
    expect(seen.size).toBeGreaterThan(0);
    expect(await quotaHolds(workspace)).toBe(true);
    process.stdout.write(`copies during replaces saw versions: ${[...seen].sort().join(', ')}\n`);
    await Promise.all([writer.stop(), copier.stop()]);
  }, 300_000);
});
