import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, realpathSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibosError, ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { DirectoryHandle, FileRead, WorkspacePath } from '@libos/core';
import { createLocalProvider } from '../src/index.js';
import { OUTSIDE_CONTENT, createSandbox } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

// The batch read of a directory handle on real disk: what a walk would notice if it went wrong is a
// name read as other bytes (a non-ASCII name under a borrowed working directory), a refusal lost
// in a batch, outside bytes read through a link, or the host's working directory left moved.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const decode = (answer: FileRead | LibosError | undefined) => {
  if (answer === undefined || LibosError.is(answer)) throw new Error(`expected a read, got ${String(answer)}`);
  return new TextDecoder().decode(answer.bytes);
};
const codeOf = (answer: FileRead | LibosError | undefined) => (LibosError.is(answer) ? answer.code : 'read');

let sandbox: Sandbox;
const startedIn = process.cwd();

beforeEach(() => {
  sandbox = createSandbox();
});

afterEach(() => {
  process.chdir(startedIn);
  sandbox.remove();
});

async function withHandle<T>(borrow: boolean, path: string, body: (handle: DirectoryHandle) => Promise<T>): Promise<T> {
  const provider = createLocalProvider({ root: sandbox.root, borrowWorkingDirectory: borrow });
  const handle = await provider.openDirectory!(p(path));
  try {
    return await body(handle);
  } finally {
    handle.close();
    await provider.close();
  }
}

describe.each([false, true])('readFiles with borrowWorkingDirectory %s', (borrow) => {
  it('reads non-ASCII names as their own bytes and answers a raw-byte name as readFile does', async () => {
    mkdirSync(sandbox.at('d'));
    writeFileSync(sandbox.at('d/é.txt'), 'accent');
    writeFileSync(sandbox.at('d/日本.txt'), 'cjk');
    writeFileSync(sandbox.at('d/plain.txt'), 'plain');
    writeFileSync(Buffer.concat([Buffer.from(`${sandbox.at('d')}/f`), Buffer.from([0xff]), Buffer.from('x')]), 'RAW');
    // Latin-1 look-alike of é's UTF-8 bytes: must not be what the batch reads for 'é.txt'.
    writeFileSync(sandbox.at('d/Ã©.txt'), 'WRONG');
    await withHandle(borrow, 'd', async (handle) => {
      const names = ['é.txt', '日本.txt', 'plain.txt', 'f\uFFFDx', 'é.txt'];
      const answers = await handle.readFiles!(names, { maxBytes: 100 });
      expect(decode(answers[0])).toBe('accent');
      expect(decode(answers[1])).toBe('cjk');
      expect(decode(answers[2])).toBe('plain');
      const single = await handle.readFile('f\uFFFDx', { maxBytes: 100 }).catch((error: LibosError) => error);
      expect(codeOf(answers[3])).toBe(codeOf(single));
      expect(decode(answers[4])).toBe('accent');
    });
    expect(realpathSync(process.cwd())).toBe(realpathSync(startedIn));
  });

  it('refuses links, a hard link (after its settling wait) and a FIFO in their slots, reading the rest', async () => {
    mkdirSync(sandbox.at('d'));
    for (const name of ['a', 'c', 'e', 'g']) writeFileSync(sandbox.at(`d/${name}.txt`), name);
    symlinkSync(`${sandbox.outside}/secret.txt`, sandbox.at('d/b.txt'));
    writeFileSync(sandbox.at('d/d.txt'), 'shared');
    linkSync(sandbox.at('d/d.txt'), sandbox.at('d/d2.txt'));
    execFileSync('mkfifo', [sandbox.at('d/f.txt')]);
    await withHandle(borrow, 'd', async (handle) => {
      const names = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'f.txt', 'g.txt'];
      const answers = await handle.readFiles!(names, { maxBytes: 100 });
      expect(answers.map(codeOf)).toEqual(['read', 'symlink_refused', 'read', 'hard_link_refused', 'read', 'not_a_file', 'read']);
      expect(answers.filter((answer) => !LibosError.is(answer)).map(decode)).toEqual(['a', 'c', 'e', 'g']);
      expect(JSON.stringify(answers.map((answer) => (LibosError.is(answer) ? answer.message : decode(answer))))).not.toContain(OUTSIDE_CONTENT);
    });
  });

  it('a name swapped for a link to an outside file after the listing is refused, never followed', async () => {
    mkdirSync(sandbox.at('d'));
    for (let index = 0; index < 8; index++) writeFileSync(sandbox.at(`d/f${index}.txt`), `inside ${index}`);
    await withHandle(borrow, 'd', async (handle) => {
      const listing = await handle.list({ limit: 100 });
      // Another process of the host swaps two listed files for links between the listing and the reads.
      unlinkSync(sandbox.at('d/f2.txt'));
      symlinkSync(`${sandbox.outside}/secret.txt`, sandbox.at('d/f2.txt'));
      unlinkSync(sandbox.at('d/f5.txt'));
      mkdirSync(sandbox.at('d/f5.txt'));
      const answers = await handle.readFiles!(
        listing.entries.map((entry) => entry.name),
        { maxBytes: 100 },
      );
      expect(answers.map(codeOf)).toEqual(['read', 'read', 'symlink_refused', 'read', 'read', 'not_a_file', 'read', 'read']);
      expect(decode(answers[7])).toBe('inside 7');
    });
  });
});
