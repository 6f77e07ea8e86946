import { createHash } from 'node:crypto';
import { chmodSync } from 'node:fs';
import type { ApprovalRequest } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { TOOL_BEDS } from './file-tool-beds.js';

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

const ASK_WRITE = {
  grants: [
    { path: '.', tree: true, rights: ['read' as const] },
    { path: 'logs', tree: true, rights: ['write' as const], mode: 'ask' as const },
  ],
};

for (const [providerName, makeBed] of TOOL_BEDS) {
  describe(`copy_file on ${providerName}`, () => {
    it('copies bytes and mode, creating missing parents, and never replaces without overwrite', async () => {
      const bed = await makeBed();
      await bed.fixtures.writeFile('src/run.sh', 'echo hi\n');
      if (bed.hostPath !== undefined) chmodSync(bed.hostPath('src/run.sh'), 0o750);
      expect(await bed.process.call('copy_file', { from: 'src/run.sh', to: 'bin/tools/run.sh' })).toEqual({
        ok: true,
        result: { from: 'src/run.sh', to: 'bin/tools/run.sh', bytes_copied: 8, replaced: false },
      });
      expect(await bed.text('bin/tools/run.sh')).toBe('echo hi\n');
      expect(await bed.text('src/run.sh')).toBe('echo hi\n');
      if (bed.modeOf !== undefined) expect(bed.modeOf('bin/tools/run.sh')).toBe(0o750);
      await bed.fixtures.writeFile('other.sh', 'other');
      await bed.fixtures.makeDirectory('dir');
      expect(await bed.process.call('copy_file', { from: 'other.sh', to: 'bin/tools/run.sh' })).toMatchObject({
        ok: false,
        error: { code: 'already_exists', effect: 'none' },
      });
      expect(await bed.process.call('copy_file', { from: 'other.sh', to: 'dir', overwrite: true })).toMatchObject({
        ok: false,
        error: { code: 'not_a_file' },
      });
      expect(await bed.process.call('copy_file', { from: 'dir', to: 'x', overwrite: true })).toMatchObject({
        ok: false,
        error: { code: 'not_a_file' },
      });
      expect(await bed.process.call('copy_file', { from: 'nothing', to: 'x' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(await bed.process.call('copy_file', { from: 'other.sh', to: 'bin/tools/run.sh', overwrite: true })).toMatchObject({
        ok: true,
        result: { bytes_copied: 5, replaced: true },
      });
      expect(await bed.text('bin/tools/run.sh')).toBe('other');
      expect(await bed.fixtures.kindOf('x')).toBe('missing');
    });

    it('refuses links and hard links on either side', async () => {
      const bed = await makeBed();
      await bed.fixtures.writeFile('plain.txt', 'plain');
      await bed.fixtures.symlink('link.txt', bed.fixtures.outside.fileTarget('.'));
      await bed.fixtures.writeFile('twin-a.txt', 'twin');
      await bed.fixtures.hardLink('twin-a.txt', 'twin-b.txt');
      const outside = await bed.fixtures.outside.fingerprint();
      for (const [args, code] of [
        [{ from: 'link.txt', to: 'x.txt' }, 'symlink_refused'],
        [{ from: 'plain.txt', to: 'link.txt', overwrite: true }, 'symlink_refused'],
        [{ from: 'twin-a.txt', to: 'x.txt' }, 'hard_link_refused'],
        [{ from: 'plain.txt', to: 'twin-b.txt', overwrite: true }, 'hard_link_refused'],
        [{ from: 'plain.txt', to: '.git/x' }, 'protected_path'],
      ] as const) {
        const outcome = await bed.process.call('copy_file', args);
        expect(outcome, JSON.stringify(args)).toMatchObject({ ok: false, error: { code, effect: 'none' } });
        expect(JSON.stringify(outcome)).not.toContain('OUTSIDE');
      }
      expect(await bed.fixtures.kindOf('x.txt')).toBe('missing');
      expect(await bed.text('twin-b.txt')).toBe('twin');
      expect(await bed.fixtures.outside.fingerprint()).toBe(outside);
    });

    it('needs exactly read on from and write on to', async () => {
      const bed = await makeBed({
        config: {
          grants: [
            { path: 'in', tree: true, rights: ['read'] },
            { path: 'out', tree: true, rights: ['write'] },
          ],
        },
      });
      await bed.fixtures.writeFile('in/a.txt', 'a');
      await bed.fixtures.writeFile('out/b.txt', 'b');
      expect(await bed.process.call('copy_file', { from: 'in/a.txt', to: 'out/a.txt' })).toMatchObject({ ok: true });
      expect(await bed.process.call('copy_file', { from: 'out/b.txt', to: 'out/c.txt' })).toMatchObject({
        ok: false,
        error: { code: 'denied', details: { right: 'read', path: 'out/b.txt' } },
      });
      expect(await bed.process.call('copy_file', { from: 'in/a.txt', to: 'in/c.txt' })).toMatchObject({
        ok: false,
        error: { code: 'denied', details: { right: 'write', path: 'in/c.txt' } },
      });
      expect(await bed.text('out/a.txt')).toBe('a');
      expect(await bed.fixtures.kindOf('out/c.txt')).toBe('missing');
    });

    it('needs read on from and write on to, and never lowers a label', async () => {
      const bed = await makeBed({
        config: {
          grants: [
            { path: '.', tree: true, rights: ['read', 'write'] },
            { path: 'private', tree: true, rights: ['read', 'write'], mode: 'deny' },
          ],
          labels: [
            { path: 'secrets', tree: true, label: 'secret' },
            { path: 'vault', tree: true, label: 'secret' },
          ],
          sinks: [{ path: 'outbox', tree: true, max_label: 'normal' }],
        },
      });
      await bed.fixtures.writeFile('secrets/key.txt', 'k');
      await bed.fixtures.writeFile('private/p.txt', 'p');
      await bed.fixtures.writeFile('notes.txt', 'n');
      for (const [from, to, code] of [
        ['secrets/key.txt', 'notes-copy.txt', 'egress_denied'],
        ['secrets/key.txt', 'outbox/key.txt', 'egress_denied'],
        ['private/p.txt', 'p.txt', 'denied'],
        ['notes.txt', 'private/n.txt', 'denied'],
      ] as const) {
        expect(await bed.process.call('copy_file', { from, to }), `${from} -> ${to}`).toMatchObject({ ok: false, error: { code, effect: 'none' } });
      }
      expect(await bed.process.call('copy_file', { from: 'secrets/key.txt', to: 'secrets/key-2.txt' })).toMatchObject({ ok: true });
      expect(await bed.process.call('copy_file', { from: 'secrets/key.txt', to: 'vault/key.txt' })).toMatchObject({ ok: true });
      expect(await bed.process.call('copy_file', { from: 'notes.txt', to: 'outbox/notes.txt' })).toMatchObject({ ok: true });
      expect(await bed.fixtures.kindOf('notes-copy.txt')).toBe('missing');
      expect(await bed.fixtures.kindOf('outbox/key.txt')).toBe('missing');
    });
  });

  describe(`copy_file on ${providerName} without copyFile`, () => {
    it('says so clearly and writes nothing', async () => {
      const bed = await makeBed({}, (provider) => {
        const { copyFile: _dropped, ...rest } = provider;
        return { ...rest, close: () => provider.close() };
      });
      await bed.fixtures.writeFile('a.txt', 'a');
      expect(await bed.process.call('copy_file', { from: 'a.txt', to: 'b.txt' })).toMatchObject({
        ok: false,
        error: { code: 'provider_failure', effect: 'none' },
      });
      expect(await bed.fixtures.kindOf('b.txt')).toBe('missing');
    });
  });

  describe(`edit_text_file dry_run on ${providerName}`, () => {
    it('gives the real call result, writes nothing and asks no approval', async () => {
      const seen: ApprovalRequest[] = [];
      const bed = await makeBed({
        config: ASK_WRITE,
        approver: async (request) => {
          seen.push(request);
          return 'approve';
        },
      });
      await bed.fixtures.writeFile('logs/a.txt', 'one\ntwo\nthree\n');
      const args = { path: 'logs/a.txt', edits: [{ old_text: 'two', new_text: 'TWO' }] };
      const dry = await bed.process.call('edit_text_file', { ...args, dry_run: true });
      expect(dry).toMatchObject({ ok: true, result: { replacements: 1 } });
      expect(seen).toHaveLength(0);
      expect(await bed.text('logs/a.txt')).toBe('one\ntwo\nthree\n');
      const mismatch = await bed.process.call('edit_text_file', { path: 'logs/a.txt', edits: [{ old_text: 'four', new_text: 'x' }], dry_run: true });
      expect(mismatch).toMatchObject({ ok: false, error: { code: 'edit_mismatch', details: { edit: 0, occurrences: 0 } } });
      const stale = await bed.process.call('edit_text_file', { ...args, dry_run: true, expected_content_sha256: sha256('other') });
      expect(stale).toMatchObject({ ok: false, error: { code: 'content_conflict' } });
      const real = await bed.process.call('edit_text_file', args);
      expect(real).toEqual(dry);
      expect(seen).toHaveLength(1);
      expect(await bed.text('logs/a.txt')).toBe('one\nTWO\nthree\n');
      if (dry.ok) expect(dry.result.content_sha256).toBe(sha256('one\nTWO\nthree\n'));
    });
  });
}
