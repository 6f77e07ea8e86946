import type { ApprovalRequest } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { ALL_RIGHTS, runtimeOn, sha256, useSharedCheckpoint } from './support/authority-runtime-testbed.js';

useSharedCheckpoint();

describe('uses through the runtime', () => {
  it('are spent once the provider is called, even when the call then fails', async () => {
    const { process, calls } = await runtimeOn(true, { grants: [{ path: 'notes.txt', rights: ['write'], uses: 1 }] });
    const failed = await process.call('write_text_file', { path: 'notes.txt', content: 'x', overwrite: false });
    expect(failed).toMatchObject({ ok: false, error: { code: 'already_exists' } });
    expect(calls).toEqual(['writeFile']);
    const after = await process.call('write_text_file', { path: 'notes.txt', content: 'x' });
    expect(after).toMatchObject({ ok: false, error: { code: 'denied', message: 'Writing "notes.txt" is not permitted.' } });
    expect(calls).toEqual(['writeFile']);
  });

  it('let exactly one of 20 parallel calls through with uses: 1, across processes', async () => {
    const { runtime, calls } = await runtimeOn(true, { grants: [{ path: 'notes.txt', rights: ['write'], uses: 1 }] });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) => runtime.spawn().call('write_text_file', { path: 'notes.txt', content: `writer ${index}` })),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.error.code === 'denied')).toHaveLength(19);
    expect(calls).toEqual(['writeFile']);
  });
});

describe('approvals through the runtime', () => {
  it('show the encoded bytes, ask again for changed content, and write only what was approved', async () => {
    const approvals: ApprovalRequest[] = [];
    const answers: ('approve' | 'reject')[] = ['approve', 'reject', 'approve'];
    const { process, calls } = await runtimeOn(
      true,
      { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] },
      async (request) => {
        approvals.push(request);
        return answers.shift()!;
      },
    );
    const args = { path: 'public/f.txt', content: 'héllo\n', encoding: 'utf-16' };
    expect(await process.call('write_text_file', args)).toMatchObject({ ok: true, result: { bytes_written: 14 } });
    const changed = { ...args, content: 'changed' };
    expect(await process.call('write_text_file', changed)).toMatchObject({ ok: false, error: { code: 'approval_rejected' } });
    expect(await process.call('write_text_file', args)).toMatchObject({ ok: true });
    expect(calls).toEqual(['writeFile', 'writeFile']);

    const utf16 = Uint8Array.of(0xff, 0xfe, ...[...'héllo\n'].flatMap((character) => [character.charCodeAt(0), 0]));
    expect(approvals[0]).toEqual({
      tool: 'write_text_file',
      right: 'write',
      path: 'public/f.txt',
      arguments_sha256: sha256(JSON.stringify(args)),
      content_bytes: 14,
      content_sha256: sha256(utf16),
      // UTF-16 bytes read leniently as UTF-8: the BOM becomes U+FFFD and every zero byte is escaped.
      preview: '\ufffd\ufffdh\\u{0000}\ufffd\\u{0000}l\\u{0000}l\\u{0000}o\\u{0000}\n\\u{0000}',
      message: expect.stringMatching(
        /^Allow write_text_file to write "public\/f\.txt"\? It would write 14 bytes \(SHA-256 [0-9a-f]{64}\)\. Preview:\n {2}\| /u,
      ),
    });
    expect(approvals[1]!.content_sha256).not.toBe(approvals[0]!.content_sha256);
    expect(approvals[2]).toEqual(approvals[0]);
  });

  it('ask about reads with null content fields', async () => {
    const approvals: ApprovalRequest[] = [];
    const { process } = await runtimeOn(true, { grants: [{ path: 'public', tree: true, rights: ['read'], mode: 'ask' }] }, async (request) => {
      approvals.push(request);
      return 'approve';
    });
    expect(await process.call('read_text_file', { path: 'public/f.txt' })).toMatchObject({ ok: true });
    expect(approvals).toEqual([
      {
        tool: 'read_text_file',
        right: 'read',
        path: 'public/f.txt',
        arguments_sha256: sha256(JSON.stringify({ path: 'public/f.txt' })),
        content_bytes: null,
        content_sha256: null,
        preview: null,
        message: 'Allow read_text_file to read "public/f.txt"?',
      },
    ]);
  });
});

describe('a policy through the runtime', () => {
  it('without grants allows everything in the workspace', async () => {
    const { process } = await runtimeOn(true, {});
    expect(await process.call('delete_directory', { path: 'private', recursive: true })).toMatchObject({ ok: true });
  });

  it('resolves relative paths before matching, so grants see canonical identities', async () => {
    const { runtime } = await runtimeOn(true, {
      grants: [
        { path: '.', tree: true, rights: ['read'] },
        { path: 'public/d', tree: true, rights: ['write'] },
      ],
    });
    const child = await runtime.spawn().spawn({ cwd: 'public/d' });
    expect(await child.call('write_text_file', { path: './x/../y.txt', content: 'y' })).toMatchObject({
      ok: true,
      result: { path: 'public/d/y.txt' },
    });
    expect(await child.call('write_text_file', { path: '../f.txt', content: 'y' })).toMatchObject({
      ok: false,
      error: { code: 'denied', message: 'Writing "public/f.txt" is not permitted.' },
    });
  });
});

describe('namespaces and labels through the runtime', () => {
  it('refuse another process namespace and an undeclared right before the provider is called', async () => {
    const { runtime, process, calls } = await runtimeOn(true, { namespaces: [{ name: 'inbox', rights: ['write'] }] });
    const other = runtime.spawn();
    const cases: [{ name: string; path: string; namespace: string }, string][] = [
      [{ name: 'x', path: 'public/f.txt', namespace: other.namespace }, 'namespace_not_found'],
      [{ name: 'x', path: 'public/f.txt', namespace: 'nowhere' }, 'namespace_not_found'],
    ];
    for (const [args, code] of cases) {
      expect(await process.call('create_object_from_file', args)).toMatchObject({ ok: false, error: { code } });
    }
    expect(await process.call('write_object_to_file', { name: 'x', namespace: 'inbox', path: 'out.txt' })).toMatchObject({
      ok: false,
      error: { code: 'denied', details: { right: 'read', namespace: 'inbox' } },
    });
    expect(calls).toEqual([]);
  });

  it('label Objects from their file and refuse egress above the target clearance without a provider call', async () => {
    const { process, calls } = await runtimeOn(true, {
      labels: [
        { path: 'private', tree: true, label: 'secret' },
        { path: 'vault', tree: true, label: 'secret' },
      ],
      sinks: [{ path: 'vault', tree: true, max_label: 'secret' }],
    });
    expect(await process.call('create_object_from_file', { name: 'key', path: 'private/f.txt' })).toMatchObject({ ok: true });
    calls.length = 0;
    expect(await process.call('write_object_to_file', { name: 'key', path: 'public/copy.txt' })).toMatchObject({
      ok: false,
      error: { code: 'egress_denied', effect: 'none' },
    });
    expect(calls).toEqual([]);
    expect(await process.call('write_object_to_file', { name: 'key', path: 'vault/copy.txt' })).toMatchObject({ ok: true });
    expect(calls).toEqual(['writeFile']);
  });
});
