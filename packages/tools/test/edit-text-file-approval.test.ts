import type { ApprovalRequest, Approver } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { createTestbed, text } from './support/harness.js';
import { sha256 } from './support/authority-runtime-testbed.js';

const ASK_WRITE = {
  grants: [
    { path: '.', tree: true, rights: ['read' as const] },
    { path: 'src', tree: true, rights: ['write' as const], mode: 'ask' as const },
  ],
};

function recording(answer: (request: ApprovalRequest) => Promise<'approve' | 'reject' | 'unavailable'> | 'approve' | 'reject') {
  const seen: ApprovalRequest[] = [];
  const approver: Approver = async (request) => {
    seen.push(request);
    return answer(request);
  };
  return { seen, approver };
}

describe('edit_text_file under an ask grant', () => {
  it('shows the approver the escaped diff and the hash of the exact bytes, which are the bytes that land', async () => {
    const { seen, approver } = recording(() => 'approve');
    const bed = await createTestbed({ config: ASK_WRITE, approver });
    await bed.fixtures.writeFile('src/a.txt', 'keep\nold \u202eline\n');
    const result = await bed.ok('edit_text_file', { path: 'src/a.txt', edits: [{ old_text: 'old', new_text: 'new\u0007' }] });
    const landed = await bed.fixtures.readFile('src/a.txt');
    expect(text(landed)).toBe('keep\nnew\u0007 \u202eline\n');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      tool: 'edit_text_file',
      right: 'write',
      path: 'src/a.txt',
      content_bytes: landed!.length,
      content_sha256: sha256(landed!),
      // Real lines, each escaped on its own: no content can break a line or pose as a diff line.
      preview: '--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,2 +1,2 @@\n keep\n-old \\u{202E}line\n+new\\u{0007} \\u{202E}line',
    });
    expect(seen[0]!.message).toContain(`Change:\n${seen[0]!.preview}`);
    expect(result.content_sha256).toBe(seen[0]!.content_sha256);
  });

  it('fails with content_conflict when the file changes while the approver decides, so unapproved bytes never land', async () => {
    let bed!: Awaited<ReturnType<typeof createTestbed>>;
    const { approver } = recording(async () => {
      await bed.fixtures.writeFile('src/a.txt', 'someone else wrote this');
      return 'approve' as const;
    });
    bed = await createTestbed({ config: ASK_WRITE, approver });
    await bed.fixtures.writeFile('src/a.txt', 'original');
    expect(await bed.fail('edit_text_file', { path: 'src/a.txt', edits: [{ old_text: 'original', new_text: 'edited' }] })).toMatchObject({
      code: 'content_conflict',
      effect: 'none',
    });
    expect(text(await bed.fixtures.readFile('src/a.txt'))).toBe('someone else wrote this');
  });

  it('asks without content when the edit cannot apply, and tells the caller why only after approval', async () => {
    const approve = recording(() => 'approve');
    const bed = await createTestbed({ config: ASK_WRITE, approver: approve.approver });
    await bed.fixtures.writeFile('src/a.txt', 'text');
    const missing = await bed.fail('edit_text_file', { path: 'src/a.txt', edits: [{ old_text: 'absent', new_text: 'x' }] });
    expect(missing).toMatchObject({ code: 'edit_mismatch', effect: 'none', details: { edit: 0, occurrences: 0 } });
    expect(await bed.fail('edit_text_file', { path: 'src/none.txt', edits: [{ old_text: 'a', new_text: 'b' }] })).toMatchObject({
      code: 'not_found',
    });
    expect(approve.seen.map((request) => [request.content_bytes, request.content_sha256, request.preview])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);

    // A rejecting approver hides whether the text occurs, and whether the file exists at all.
    const reject = recording(() => 'reject');
    const other = await createTestbed({ config: ASK_WRITE, approver: reject.approver });
    await other.fixtures.writeFile('src/a.txt', 'secret word');
    const probes = await Promise.all(
      [
        ['src/a.txt', 'secret'],
        ['src/a.txt', 'guess'],
        ['src/none.txt', 'secret'],
      ].map(([path, old_text]) => other.fail('edit_text_file', { path, edits: [{ old_text, new_text: 'x' }] })),
    );
    for (const probe of probes) expect(probe).toMatchObject({ code: 'approval_rejected', effect: 'none' });
    expect(probes[0]!.message).toBe(probes[1]!.message);
    expect(text(await other.fixtures.readFile('src/a.txt'))).toBe('secret word');
  });

  it('reads nothing when there is no approver to show the diff to, and spends no use on a rejection', async () => {
    const bed = await createTestbed({ config: { grants: [{ path: 'a.txt', rights: ['write'], mode: 'ask', uses: 1 }] } });
    await bed.fixtures.writeFile('a.txt', 'x');
    expect(await bed.fail('edit_text_file', { path: 'a.txt', edits: [{ old_text: 'x', new_text: 'y' }] })).toMatchObject({
      code: 'approval_required',
    });
    let answer: 'approve' | 'reject' = 'reject';
    const { approver } = recording(() => answer);
    const asked = await createTestbed({ config: { grants: [{ path: 'a.txt', rights: ['write'], mode: 'ask', uses: 1 }] }, approver });
    await asked.fixtures.writeFile('a.txt', 'x');
    expect(await asked.fail('edit_text_file', { path: 'a.txt', edits: [{ old_text: 'x', new_text: 'y' }] })).toMatchObject({
      code: 'approval_rejected',
    });
    answer = 'approve';
    await asked.ok('edit_text_file', { path: 'a.txt', edits: [{ old_text: 'x', new_text: 'y' }] });
    expect(await asked.fail('edit_text_file', { path: 'a.txt', edits: [{ old_text: 'y', new_text: 'z' }] })).toMatchObject({ code: 'denied' });
    expect(text(await asked.fixtures.readFile('a.txt'))).toBe('y');
  });

  it('shows an edit inside one long line as a window around the change on the old and the new line, with counts', async () => {
    const { seen, approver } = recording(() => 'approve');
    const bed = await createTestbed({ config: ASK_WRITE, approver });
    // A minified file: one line of 200,000 characters, changed in the middle.
    const line = `${'a'.repeat(100_000)}SAFE${'b'.repeat(100_000)}`;
    await bed.fixtures.writeFile('src/app.min.js', `${line}\n`);
    await bed.ok('edit_text_file', { path: 'src/app.min.js', edits: [{ old_text: 'SAFE', new_text: 'EVIL()' }] });
    const lines = seen[0]!.preview!.split('\n');
    const removed = lines.find((shown) => shown.startsWith('-') && !shown.startsWith('---'))!;
    const added = lines.find((shown) => shown.startsWith('+') && !shown.startsWith('+++'))!;
    expect(removed).toBe(`-\\[99952 characters not shown]${'a'.repeat(48)}SAFE${'b'.repeat(48)}\\[99952 characters not shown]`);
    expect(added).toBe(`+\\[99952 characters not shown]${'a'.repeat(48)}EVIL()${'b'.repeat(48)}\\[99952 characters not shown]`);
  });

  it('shows every changed line of every hunk: a long harmless first hunk hides no second one', async () => {
    const { seen, approver } = recording(() => 'approve');
    const bed = await createTestbed({ config: ASK_WRITE, approver });
    const harmless = Array.from({ length: 60 }, (_, index) => `comment ${index} ${'x'.repeat(60)}`);
    const body = [...harmless, ...Array.from({ length: 50 }, (_, index) => `line ${index}`), 'run(safe)'];
    await bed.fixtures.writeFile('src/a.txt', `${body.join('\n')}\n`);
    const edits = [
      ...harmless.map((old_text) => ({ old_text, new_text: old_text.replace('comment', 'note') })),
      { old_text: 'run(safe)', new_text: 'run(evil)' },
    ];
    await bed.ok('edit_text_file', { path: 'src/a.txt', edits });
    const preview = seen[0]!.preview!;
    expect(preview.split('\n').filter((shown) => shown.startsWith('+note'))).toHaveLength(60);
    expect(preview).toContain('\n-run(safe)\n+run(evil)');
    expect(preview).not.toContain('…');
  });

  it('refuses with approval_required, asking no one, when the change cannot be shown whole', async () => {
    const { seen, approver } = recording(() => 'approve');
    const bed = await createTestbed({ config: ASK_WRITE, approver });
    await bed.fixtures.writeFile('src/big.txt', '\u0001'.repeat(5000));
    const refused = await bed.fail('edit_text_file', {
      path: 'src/big.txt',
      edits: [{ old_text: '\u0001', new_text: '\u0002', replace_all: true }],
    });
    expect(refused).toMatchObject({ code: 'approval_required', effect: 'none', details: { right: 'write', path: 'src/big.txt' } });
    expect(refused.message).toMatch(/cannot be shown whole for approval/);
    expect(seen).toEqual([]);
    expect(text(await bed.fixtures.readFile('src/big.txt'))).toBe('\u0001'.repeat(5000));
    // Many changed lines past the whole preview's bound: refused the same way.
    await bed.fixtures.writeFile('src/many.txt', 'x\n'.repeat(5000));
    const many = await bed.fail('edit_text_file', { path: 'src/many.txt', edits: [{ old_text: 'x', new_text: 'y', replace_all: true }] });
    expect(many).toMatchObject({ code: 'approval_required' });
    expect(many.message).toMatch(/more than 16384 characters/);
    expect(seen).toEqual([]);
  });
});

describe('move_file under an ask grant', () => {
  const ASK_MOVE = { grants: [{ path: '.', tree: true, rights: ['read' as const, 'write' as const, 'delete' as const], mode: 'ask' as const }] };

  it('shows source, destination, size and SHA-256, and moves only the bytes shown', async () => {
    const { seen, approver } = recording(() => 'approve');
    const bed = await createTestbed({ config: ASK_MOVE, approver });
    await bed.fixtures.writeFile('a/report.txt', 'quarterly numbers\n');
    await bed.ok('move_file', { from: 'a/report.txt', to: 'b/report.txt' });
    const bytes = new TextEncoder().encode('quarterly numbers\n');
    expect(seen).toHaveLength(2);
    for (const request of seen) {
      expect(request).toMatchObject({ tool: 'move_file', content_bytes: bytes.length, content_sha256: sha256(bytes), preview: null });
      expect(request.message).toContain(`It would move the file "a/report.txt" to "b/report.txt": 18 bytes (SHA-256 ${sha256(bytes)}).`);
    }
    expect(seen.map((request) => [request.right, request.path])).toEqual([
      ['delete', 'a/report.txt'],
      ['write', 'b/report.txt'],
    ]);
  });

  it('moves nothing when the file changed after it was shown', async () => {
    let bed!: Awaited<ReturnType<typeof createTestbed>>;
    const { approver } = recording(async () => {
      await bed.fixtures.writeFile('a/report.txt', 'swapped in meanwhile');
      return 'approve' as const;
    });
    bed = await createTestbed({ config: ASK_MOVE, approver });
    await bed.fixtures.writeFile('a/report.txt', 'shown to the approver');
    expect(await bed.fail('move_file', { from: 'a/report.txt', to: 'b/report.txt' })).toMatchObject({ code: 'content_conflict' });
    expect(await bed.fixtures.kindOf('b/report.txt')).toBe('missing');
  });
});
