import type { ApprovalRequest, ConfigInput } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { createTestbed } from './support/harness.js';

type Bed = Awaited<ReturnType<typeof createTestbed>>;

const PUBLIC_FILES = { 'public/a.txt': 'token in public\n', 'z.txt': 'token at the top\n' };
const PRIVATE_FILES = {
  'private/a.txt': 'token in private\n',
  'private/deep/b.txt': 'token token\n',
  'askme/c.txt': 'token asked\n',
  'public/denied.txt': 'token denied file\n',
};

async function bedWith(config: ConfigInput, withPrivate: boolean, seen: ApprovalRequest[] = []): Promise<Bed> {
  const bed = await createTestbed({
    config,
    approver: async (request) => {
      seen.push(request);
      return 'approve';
    },
  });
  for (const [path, content] of Object.entries({ ...PUBLIC_FILES, ...(withPrivate ? PRIVATE_FILES : {}) }))
    await bed.fixtures.writeFile(path, content);
  if (!withPrivate) {
    // The same names exist, holding nothing that matches: only contents could differ.
    for (const path of Object.keys(PRIVATE_FILES)) await bed.fixtures.writeFile(path, 'nothing here\n');
  }
  return bed;
}

const POLICY: ConfigInput = {
  grants: [
    { path: '.', tree: true, rights: ['read'] },
    { path: 'private', tree: true, rights: ['read'], mode: 'deny' },
    { path: 'askme', tree: true, rights: ['read'], mode: 'ask' },
    { path: 'public/denied.txt', rights: ['read'], mode: 'deny' },
  ],
};

describe('search_files and authority', () => {
  it('leaves no trace of what the process may not read: the same answer whatever denied and ask trees hold', async () => {
    const answers = [];
    const seen: ApprovalRequest[] = [];
    for (const withPrivate of [true, false]) {
      const bed = await bedWith(POLICY, withPrivate, seen);
      answers.push(await bed.ok('search_files', { path: '.', query: 'token' }));
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toEqual({
      path: '.',
      matches: [
        { path: 'public/a.txt', line: 1, column: 1, text: 'token in public' },
        { path: 'z.txt', line: 1, column: 1, text: 'token at the top' },
      ],
      count: 2,
      truncated: false,
      files_searched: 2,
      partial_files: 0,
      skipped_ignored: 0,
      stopped: null,
    });
    // An ask subtree is skipped, never put to the approver.
    expect(seen).toEqual([]);
    // Read itself refuses the same files.
    const bed = await bedWith(POLICY, true);
    expect(await bed.fail('read_text_file', { path: 'private/a.txt' })).toMatchObject({ code: 'denied' });
    expect(await bed.fail('read_text_file', { path: 'public/denied.txt' })).toMatchObject({ code: 'denied' });
  });

  it('asks once for an ask root, then reads below it under that approval, but not into another ask grant', async () => {
    const seen: ApprovalRequest[] = [];
    const config: ConfigInput = {
      grants: [
        { path: 'askme', tree: true, rights: ['read'], mode: 'ask' },
        { path: 'askme/inner', tree: true, rights: ['read'], mode: 'ask' },
      ],
    };
    const bed = await bedWith(config, true, seen);
    await bed.fixtures.writeFile('askme/inner/d.txt', 'token inner\n');
    const result = await bed.ok('search_files', { path: 'askme', query: 'token' });
    expect(result.matches).toEqual([{ path: 'askme/c.txt', line: 1, column: 1, text: 'token asked' }]);
    expect(seen.map((request) => [request.tool, request.right, request.path])).toEqual([['search_files', 'read', 'askme']]);
  });

  it('spends one use of a limited grant per search, however many files that grant lets it read', async () => {
    const bed = await bedWith(
      {
        grants: [
          { path: '.', tree: true, rights: ['read'], uses: 2 },
          { path: 'z.txt', rights: ['read'], uses: 1 },
        ],
      },
      true,
    );
    const result = await bed.ok('search_files', { path: '.', query: 'token' });
    // z.txt is decided by both limited grants; the tree grant this call already spent covers it.
    expect((result.matches as { path: string }[]).map((match) => match.path)).toEqual([
      'askme/c.txt',
      'private/a.txt',
      'private/deep/b.txt',
      'public/a.txt',
      'public/denied.txt',
      'z.txt',
    ]);
    await bed.ok('read_directory', { path: '.' });
    expect(await bed.fail('search_files', { path: '.', query: 'token' })).toMatchObject({ code: 'denied', effect: 'none' });
  });

  it('reads nothing at all when the root itself is denied, whatever it holds', async () => {
    const bed = await bedWith(POLICY, true);
    const missing = await bed.fail('search_files', { path: 'private/none', query: 'token' });
    const present = await bed.fail('search_files', { path: 'private', query: 'token' });
    expect(missing).toMatchObject({ code: 'denied', effect: 'none' });
    expect(present.code).toBe('denied');
  });

  it('skips exactly the files a read would be refused, where grants name single entries of a directory, a denied subtree and labels', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 12; index++) files[`mix/f${index}.txt`] = 'token\n';
    Object.assign(files, { 'mix/sub/keep.txt': 'token\n', 'mix/sub/deep/x.txt': 'token\n', 'calm/a.txt': 'token\n', 'calm/in/b.txt': 'token\n' });
    const config: ConfigInput = {
      grants: [
        { path: '.', tree: true, rights: ['read'] },
        { path: 'mix/f3.txt', rights: ['read'], mode: 'deny' },
        { path: 'mix/f7.txt', rights: ['read'], mode: 'ask' },
        { path: 'mix/f9.txt', rights: ['write'], mode: 'deny' },
        { path: 'mix/sub', tree: true, rights: ['read'], mode: 'deny' },
        { path: 'mix/sub/keep.txt', rights: ['read'] },
        { path: 'calm/in', tree: true, rights: ['read', 'write'] },
      ],
      labels: [
        { path: 'mix/f5.txt', label: 'secret' },
        { path: 'calm', tree: true, label: 'confidential' },
      ],
    };
    const bed = await createTestbed({ config, approver: async () => 'reject' });
    for (const [path, content] of Object.entries(files)) await bed.fixtures.writeFile(path, content);
    const result = await bed.ok('search_files', { path: '.', query: 'token' });
    const found = (result.matches as { path: string }[]).map((match) => match.path);
    // The reference, entry by entry: the files read_text_file reads under the same policy (an ask is rejected).
    const readable: string[] = [];
    for (const path of Object.keys(files).sort()) {
      const read = await bed.call('read_text_file', { path });
      if (read.ok) readable.push(path);
    }
    expect(found).toEqual(readable);
    expect(found).not.toContain('mix/f3.txt');
    expect(found).not.toContain('mix/f7.txt');
    expect(found).not.toContain('mix/sub/keep.txt');
    expect(found).toContain('mix/f9.txt');
    expect(found).toContain('calm/in/b.txt');
  });
});
