import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '@libos/tools';
import type { RuntimeProcess } from '@libos/tools';
import { createLocalProvider } from '../src/index.js';
import { OUTSIDE_CONTENT, createSandbox, fingerprintTree } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

// Real mounts inside the workspace: a bind mount of an outside directory from the same filesystem
// (st_dev cannot tell it apart), a tmpfs, a file bind-mounted over a name. Each is refused like a
// junction by every tool, and a recursive delete of a tree holding one deletes nothing.
// Mounting needs root; elsewhere these tests are skipped, saying why.

function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'libos-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const mountable = canMount();
const mounted: string[] = [];
const sandboxes: Sandbox[] = [];

function mount(args: readonly string[], target: string): void {
  execFileSync('mount', [...args, target], { stdio: 'ignore' });
  mounted.push(target);
}

// Unmount before anything is removed: a recursive rm through a bind mount would delete its source.
afterEach(() => {
  for (const target of mounted.splice(0).reverse()) execFileSync('umount', ['-l', target], { stdio: 'ignore' });
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

interface Bed {
  sandbox: Sandbox;
  call(tool: string, args: Record<string, unknown>): Promise<{ ok: boolean; code?: string; effect?: string; result?: Record<string, unknown> }>;
  close(): Promise<void>;
}

async function bed(setup: (sandbox: Sandbox) => void): Promise<Bed> {
  const sandbox = createSandbox();
  sandboxes.push(sandbox);
  setup(sandbox);
  const runtime = await createRuntime({ provider: createLocalProvider({ root: sandbox.root }) });
  const process: RuntimeProcess = runtime.spawn();
  return {
    sandbox,
    call: async (tool, args) => {
      const outcome = await process.call(tool, args);
      expect(JSON.stringify(outcome).includes(OUTSIDE_CONTENT), `${tool} returned outside bytes`).toBe(false);
      return outcome.ok
        ? { ok: true, result: outcome.result as Record<string, unknown> }
        : { ok: false, code: outcome.error.code, effect: outcome.error.effect };
    },
    close: () => runtime.close(),
  };
}

const refused = { ok: false, code: 'symlink_refused', effect: 'none' };

describe.skipIf(!mountable)('mount points inside the workspace (real mounts; skipped unless root can mount)', () => {
  const kinds: ReadonlyArray<readonly [string, (sandbox: Sandbox, target: string) => void]> = [
    [
      'a bind mount of an outside directory on the same filesystem',
      (sandbox, target) => mount(['--bind', join(sandbox.outside, 'directory')], target),
    ],
    [
      'a tmpfs',
      (_sandbox, target) => {
        mount(['-t', 'tmpfs', 'tmpfs'], target);
        writeFileSync(join(target, 'secret.txt'), OUTSIDE_CONTENT);
      },
    ],
  ];
  for (const [label, mountAt] of kinds) {
    it(`${label}: every tool refuses it as a component or target, and nothing behind it changes`, async () => {
      const { sandbox, call, close } = await bed((created) => {
        mkdirSync(join(created.root, 'd', 'deep', 'm'), { recursive: true });
        writeFileSync(join(created.root, 'd', 'keep.txt'), 'kept');
        mountAt(created, join(created.root, 'd', 'deep', 'm'));
      });
      try {
        const behind = fingerprintTree(join(sandbox.root, 'd', 'deep', 'm'));
        const outside = fingerprintTree(sandbox.outside);
        const m = 'd/deep/m';
        expect(await call('read_directory', { path: m })).toEqual(refused);
        expect(await call('read_text_file', { path: `${m}/secret.txt` })).toEqual(refused);
        expect(await call('create_object_from_file', { name: 'copy', path: `${m}/secret.txt` })).toEqual(refused);
        expect(await call('write_text_file', { path: `${m}/new.txt`, content: 'x' })).toEqual(refused);
        expect(await call('write_text_file', { path: `${m}/secret.txt`, content: 'x', overwrite: true })).toEqual(refused);
        expect(await call('write_directory', { path: m })).toEqual(refused);
        expect(await call('write_directory', { path: `${m}/sub` })).toEqual(refused);
        expect(await call('set_working_directory', { path: m })).toEqual(refused);
        expect(await call('delete_file', { path: `${m}/secret.txt` })).toEqual(refused);
        expect(await call('delete_directory', { path: m, recursive: true })).toEqual(refused);
        // The tree holding the mount point is refused before anything in it is deleted.
        expect(await call('delete_directory', { path: 'd', recursive: true })).toEqual(refused);
        expect(readFileSync(join(sandbox.root, 'd', 'keep.txt'), 'utf8')).toBe('kept');
        expect(fingerprintTree(join(sandbox.root, 'd', 'deep', 'm'))).toBe(behind);
        expect(fingerprintTree(sandbox.outside)).toBe(outside);
        // Everything else works as usual.
        expect((await call('write_text_file', { path: 'd/other.txt', content: 'fine' })).ok).toBe(true);
      } finally {
        await close();
      }
    });
  }

  it('a file bind-mounted over a workspace name is never read, hashed, replaced or deleted', async () => {
    const { sandbox, call, close } = await bed((created) => {
      writeFileSync(join(created.root, 'f.txt'), 'mine');
      mount(['--bind', join(created.outside, 'secret.txt')], join(created.root, 'f.txt'));
    });
    try {
      const outside = fingerprintTree(sandbox.outside);
      const { createHash } = await import('node:crypto');
      const sha = createHash('sha256').update(OUTSIDE_CONTENT).digest('hex');
      expect(await call('read_text_file', { path: 'f.txt' })).toEqual(refused);
      expect(await call('create_object_from_file', { name: 'copy', path: 'f.txt' })).toEqual(refused);
      expect(await call('write_text_file', { path: 'f.txt', content: 'x', expected_content_sha256: sha })).toEqual(refused);
      expect(await call('write_text_file', { path: 'f.txt', content: 'x' })).toEqual(refused);
      expect(await call('delete_file', { path: 'f.txt' })).toEqual(refused);
      expect(fingerprintTree(sandbox.outside)).toBe(outside);
    } finally {
      await close();
    }
  });

  it('the workspace root may itself be a mount point', async () => {
    const { sandbox, call, close } = await bed((created) => mount(['-t', 'tmpfs', 'tmpfs'], created.root));
    try {
      expect((await call('write_text_file', { path: 'a/b.txt', content: 'on tmpfs' })).ok).toBe(true);
      expect(await call('read_text_file', { path: 'a/b.txt' })).toMatchObject({ ok: true, result: { content: 'on tmpfs' } });
      expect((await call('delete_directory', { path: 'a', recursive: true })).ok).toBe(true);
      expect(existsSync(join(sandbox.root, 'a'))).toBe(false);
    } finally {
      await close();
    }
  });
});
