import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { createSandbox, type Sandbox } from './local-sandbox.js';

// Paths the overlay reads back from its SQLite state are decoded once, where they are read: one
// no libOS call could have stored is refused there, never handed on as a WorkspacePath.

const path = (text: string) => resolveWorkspacePath(ROOT_PATH, text);
const bytes = (text: string) => new TextEncoder().encode(text);

let sandbox: Sandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

async function stateWith(writes: readonly string[]) {
  sandbox = createSandbox();
  const state = join(sandbox.stateDirectory, 'ws.overlay');
  const first = await openOverlay({ lower: createLocalProvider({ root: sandbox.root }), state, lowerRoot: sandbox.root });
  for (const written of writes) await first.provider.writeFile(path(written), bytes(written), { overwrite: false });
  await first.close();
  return { root: sandbox.root, state };
}

function craft(state: string, sql: string, ...values: unknown[]): void {
  const db = new Database(state);
  db.prepare(sql).run(...values);
  db.close();
}

const headOf = (rowPath: string, parent: string, name: string) => ({
  path: rowPath,
  parent,
  name,
  kind: 'file',
  opaque: 1,
  sha256: 'f'.repeat(64),
  size: 4,
  modified_at: new Date().toISOString(),
  base_kind: 'missing',
  base_sha256: null,
  base_size: null,
  base_files: null,
  manifest_id: null,
  change: 'added',
});

describe('paths read back from the state', () => {
  it("a crafted '.git' row is refused when the agent's listing meets it, not listed", async () => {
    const { root, state } = await stateWith(['src/a.txt']);
    const row = headOf('src/.git', 'src', '.git');
    craft(
      state,
      'INSERT INTO entries (path, parent, name, kind, opaque, sha256, size, modified_at, base_kind, change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      row.path,
      row.parent,
      row.name,
      row.kind,
      row.opaque,
      row.sha256,
      row.size,
      row.modified_at,
      row.base_kind,
      row.change,
    );
    const lower = createLocalProvider({ root });
    const overlay = await openOverlay({ lower, state, lowerRoot: root });
    await expect(overlay.provider.listDirectory(path('src'), { limit: 100 })).rejects.toMatchObject({
      code: 'protected_path',
      details: { path: 'src/.git', reason: 'state_path_refused' },
    });
    await overlay.close();
    await lower.close();
  });

  it('a crafted undo image fails the rewind, which then changes nothing', async () => {
    const { root, state } = await stateWith(['a.txt', 'b.txt']);
    craft(
      state,
      'INSERT INTO undo_rows (seq, ord, path, image, content) VALUES ((SELECT max(seq) FROM calls), 99, ?, ?, ?)',
      '../escape',
      JSON.stringify(headOf('../escape', '..', 'escape')),
      Buffer.from('evil'),
    );
    const lower = createLocalProvider({ root });
    const overlay = await openOverlay({ lower, state, lowerRoot: root });
    await expect(overlay.rewind(0)).rejects.toMatchObject({ code: 'invalid_path', details: { reason: 'state_path_refused' } });
    expect((await overlay.history()).calls.map((call) => call.paths)).toEqual([['a.txt'], ['b.txt']]);
    expect((await overlay.changes()).changes.map((change) => change.path)).toEqual(['a.txt', 'b.txt']);
    await overlay.close();
    await lower.close();
  });

  it("a crafted row is named in the diff as refused, and its bytes are not shown as a change to '../x'", async () => {
    const { root, state } = await stateWith(['ok.txt']);
    const row = headOf('../x', '..', 'x');
    craft(
      state,
      'INSERT INTO entries (path, parent, name, kind, opaque, sha256, size, modified_at, base_kind, change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      row.path,
      row.parent,
      row.name,
      row.kind,
      row.opaque,
      row.sha256,
      row.size,
      row.modified_at,
      row.base_kind,
      row.change,
    );
    const lower = createLocalProvider({ root });
    const overlay = await openOverlay({ lower, state, lowerRoot: root });
    const diff = await overlay.diff();
    expect(diff.text).toContain('# refused: ../x is not a path the workspace may change; apply leaves it');
    expect(diff.text).not.toContain('b/../x');
    expect(diff.text).toContain('+++ b/ok.txt');
    expect(diff.versions.map((version) => version.path)).toEqual(['ok.txt']);
    await overlay.close();
    await lower.close();
  });

  it('a fork refuses to carry a crafted row into a new state file, and leaves no file behind', async () => {
    const { root, state } = await stateWith(['src/a.txt']);
    craft(
      state,
      "INSERT INTO entries (path, parent, name, kind, opaque, sha256, size, modified_at, base_kind, change) VALUES ('../x', '..', 'x', 'file', 1, ?, 4, ?, 'missing', 'added')",
      'f'.repeat(64),
      new Date().toISOString(),
    );
    const overlay = await openOverlay({ lower: createLocalProvider({ root }), state, lowerRoot: root });
    const to = join(sandbox!.stateDirectory, 'fork.overlay');
    await expect(overlay.fork(to)).rejects.toMatchObject({ code: 'invalid_path', details: { reason: 'state_path_refused' } });
    expect(existsSync(to)).toBe(false);
    expect(readdirSync(sandbox!.stateDirectory).filter((name) => name.startsWith('fork'))).toEqual([]);
    await overlay.close();
  });
});
