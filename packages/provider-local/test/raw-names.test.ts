import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { expectFailure } from './expect-error.js';
import { STAGING, createLocalTestbed, stagedEntries, trackTestbeds } from './local-testbed.js';

// Names on disk that are not UTF-8 are shown with U+FFFD; that text must never reach the raw-byte
// entry, whatever the call, and a recursive delete must still remove raw-byte entries by their bytes.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const shown = 'f\uFFFDx';

const track = trackTestbeds();

function bed() {
  const created = createLocalTestbed();
  track(created);
  const { root } = created.sandbox;
  const raw = (...parts: Array<string | number[]>) =>
    Buffer.concat([Buffer.from(`${root}/`), ...parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part)))]);
  return { ...created, raw };
}

// The root's staging directory is left out while empty, so a leftover temporary still shows.
const rawNames = (directory: string) => {
  const names = readdirSync(directory, { encoding: 'buffer' }).map((name) => name.toString('hex'));
  const emptyStaging = names.includes(Buffer.from(STAGING).toString('hex')) && stagedEntries(`${directory}/${STAGING}`).length === 0;
  return names.filter((name) => !(emptyStaging && name === Buffer.from(STAGING).toString('hex'))).sort();
};

it('writing or deleting the shown text never touches the raw-byte file', async () => {
  const { sandbox, provider, raw } = bed();
  writeFileSync(raw('f', [0xff], 'x'), 'RAW');
  await expectFailure(provider.deleteFile(p(shown), { missingOk: false }), 'not_found');
  expect(await provider.deleteFile(p(shown), { missingOk: true })).toEqual({ deleted: false });
  await expectFailure(provider.writeFile(p(shown), new Uint8Array([1]), { overwrite: true, expectedSha256: 'a'.repeat(64) }), 'content_conflict');
  expect(await provider.writeFile(p(shown), new TextEncoder().encode('SPELLED'), { overwrite: false })).toEqual({ created: true });
  expect(await provider.deleteFile(p(shown), { missingOk: false })).toEqual({ deleted: true });
  expect(readFileSync(raw('f', [0xff], 'x'), 'utf8')).toBe('RAW');
  expect(rawNames(sandbox.root)).toEqual(['66ff78']);
});

it('a directory with a raw-byte name is neither listed through nor deleted by its shown text', async () => {
  const { sandbox, provider, raw } = bed();
  mkdirSync(raw('f', [0xff], 'x'));
  writeFileSync(raw('f', [0xff], 'x/inner'), 'RAW');
  await expectFailure(provider.listDirectory(p(shown), { limit: 10 }), 'not_found');
  await expectFailure(provider.deleteDirectory(p(shown), { recursive: true, missingOk: false }), 'not_found');
  await expectFailure(provider.makeDirectory(p(`${shown}/sub`), { parents: false, existOk: false }), 'not_found');
  expect(rawNames(sandbox.root)).toEqual(['66ff78']);
});

it('a recursive delete removes raw-byte files and directories by their bytes', async () => {
  const { sandbox, provider, raw } = bed();
  mkdirSync(raw('t/', [0xc3, 0x28], '/', [0xff, 0xfe]), { recursive: true });
  writeFileSync(raw('t/', [0xc3, 0x28], '/', [0xff, 0xfe], '/', [0x80]), 'x');
  writeFileSync(raw('t/', [0xe2, 0x82]), 'x');
  // The shown twin of a raw name, which the delete must not confuse with it.
  writeFileSync(sandbox.at('t/\uFFFD('), 'spelled');
  expect(await provider.deleteDirectory(p('t'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
  expect(readdirSync(sandbox.root)).toEqual([]);
});

it('lists the longest names, raw or not, even when the shown name exceeds 255 bytes', async () => {
  const { provider, raw } = bed();
  writeFileSync(raw([...Buffer.alloc(255, 0xff)]), 'raw');
  writeFileSync(raw('é'.repeat(127)), 'utf8');
  const listing = await provider.listDirectory(ROOT_PATH, { limit: 10 });
  expect(listing.entries.map((entry) => [entry.name.length, entry.kind])).toEqual([
    [127, 'file'],
    [255, 'file'],
  ]);
  expect(listing.entries[1]?.name).toBe('\uFFFD'.repeat(255));
});
