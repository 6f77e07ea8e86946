import { mkdirSync, renameSync, rmdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { expectFailure } from './expect-error.js';
import { createLocalTestbed, trackTestbeds } from './local-testbed.js';

// hostPath hands a string to a subprocess, which resolves it again: at the moment it is returned,
// that string must lead to the very directory the walk pinned, never to what now holds its old name.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);

const track = trackTestbeds();

function bed() {
  const created = createLocalTestbed();
  track(created);
  mkdirSync(created.sandbox.at('sub'));
  return created;
}

const identity = (hostPath: string) => {
  const status = statSync(hostPath);
  return `${status.dev}:${status.ino}`;
};

it('never names the outside once the root is replaced by a link to it', async () => {
  const { sandbox, provider } = bed();
  const pinned = identity(sandbox.root);
  const pinnedSub = identity(sandbox.at('sub'));
  renameSync(sandbox.root, `${sandbox.root}.moved`);
  symlinkSync(sandbox.outside, sandbox.root);
  const root = provider.hostPath?.(ROOT_PATH) ?? '';
  expect(identity(root)).toBe(pinned);
  expect(identity(provider.hostPath?.(p('sub')) ?? '')).toBe(pinnedSub);
  // `directory` exists outside only; the pinned root has no such child.
  await expectFailure(() => provider.hostPath?.(p('directory')), 'not_found');
});

it('follows the pinned root when its host path is renamed, like every other call', async () => {
  const { sandbox, provider } = bed();
  const pinnedSub = identity(sandbox.at('sub'));
  renameSync(sandbox.root, join(sandbox.base, 'renamed'));
  mkdirSync(sandbox.root);
  mkdirSync(sandbox.at('sub'));
  expect(provider.hostPath?.(p('sub'))).toBe(join(sandbox.base, 'renamed', 'sub'));
  expect(identity(provider.hostPath?.(p('sub')) ?? '')).toBe(pinnedSub);
});

it('fails with not_found once the root itself is deleted', async () => {
  const { sandbox, provider } = bed();
  rmdirSync(sandbox.at('sub'));
  rmdirSync(sandbox.root);
  await expectFailure(() => provider.hostPath?.(ROOT_PATH), 'not_found');
});
