import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileSystemProviderV1 } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { withSearchIndex } from '../src/index.js';
import { sandbox } from './support/sandbox.js';

const QUERIES = [
  { query: 'needle0' },
  { query: 'needle3' },
  { query: 'need', regex: true },
  { query: 'needle[0-4] [0-9a-f]{4}', regex: true },
  { query: 'later' },
];

function walkOnly(provider: FileSystemProviderV1): FileSystemProviderV1 {
  const { searchTree: _unused, ...rest } = provider;
  return rest;
}

// The indexed search and the walk agree on every query, over the tree at `root`.
async function expectSameAsWalk(root: string, index: string): Promise<string> {
  const provider = createLocalProvider({ root });
  const indexed = withSearchIndex(provider, { directory: index });
  try {
    const pushed = (await createRuntime({ provider: indexed.provider })).spawn();
    const walked = (await createRuntime({ provider: walkOnly(provider) })).spawn();
    for (const query of QUERIES) {
      const call = { path: '.', ...query };
      expect(await pushed.call('search_files', call)).toEqual(await walked.call('search_files', call));
    }
    return indexed.stats().opened;
  } finally {
    await indexed.provider.close();
  }
}

function tree(root: string): void {
  for (let index = 0; index < 40; index++) {
    mkdirSync(join(root, `d${index % 7}`), { recursive: true });
    writeFileSync(join(root, `d${index % 7}`, `f${index}.txt`), `needle${index % 5} plain text\n`);
  }
}

describe('the index on disk', () => {
  it('is loaded when sound, and a file changed while no one watched is read again (same size, same mtime)', async () => {
    const { root, index } = sandbox();
    tree(root);
    // Past the racy second: the saved filters are trusted on their stamps, so only a stamp can tell.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await expectSameAsWalk(root, index)).toBe('built');
    const file = join(root, 'd1', 'f1.txt');
    const before = statSync(file);
    writeFileSync(file, 'later1 plain text\n'.padEnd(before.size, ' ').slice(0, before.size));
    utimesSync(file, before.atime, before.mtime);
    expect(await expectSameAsWalk(root, index)).toBe('loaded');
  });

  it('is rebuilt, never trusted, when damaged: a flipped byte, a torn write, another tree', async () => {
    const { root, index } = sandbox();
    tree(root);
    await expectSameAsWalk(root, index);
    const snapshot = join(index, 'index.bin');
    const bytes = readFileSync(snapshot);
    bytes[bytes.length - 3]! ^= 0x40;
    writeFileSync(snapshot, bytes);
    expect(await expectSameAsWalk(root, index)).toBe('built');
    truncateSync(snapshot, Math.floor(statSync(snapshot).size / 2));
    expect(await expectSameAsWalk(root, index)).toBe('built');
    const other = join(root, '..', 'other');
    tree(other);
    expect(await expectSameAsWalk(other, index)).toBe('built');
  });

  it('killed (SIGKILL) while updating, leaves an index the next start checks or rebuilds', async () => {
    const { root, index } = sandbox();
    tree(root);
    for (const delay of [30, 120, 400]) {
      // Plain node, not the test runner's flags: the child loads the built packages.
      const child = fork(fileURLToPath(new URL('./support/index-then-die.mjs', import.meta.url)), [root, index], { execArgv: [] });
      await new Promise((resolve, reject) => {
        child.once('message', resolve);
        child.once('exit', (code) => reject(new Error(`the child exited ${code} before it was ready`)));
      });
      await new Promise((resolve) => setTimeout(resolve, delay));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      expect(['loaded', 'built']).toContain(await expectSameAsWalk(root, index));
    }
  }, 60_000);
});
