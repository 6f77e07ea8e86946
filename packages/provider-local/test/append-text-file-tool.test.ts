import { createHash } from 'node:crypto';
import { chmodSync } from 'node:fs';
import type { ApprovalRequest, FileSystemProviderV1 } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { TOOL_BEDS } from './file-tool-beds.js';

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

// Records which provider methods a call used, so "costs only the appended bytes" is checked by what was asked of the host.
function recordingMethods(calls: string[]) {
  return (provider: FileSystemProviderV1): FileSystemProviderV1 =>
    new Proxy(provider, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function' || typeof key !== 'string') return value;
        return (...args: unknown[]) => {
          calls.push(key);
          return value.apply(target, args);
        };
      },
    });
}

const ASK_WRITE = {
  grants: [
    { path: '.', tree: true, rights: ['read' as const] },
    { path: 'logs', tree: true, rights: ['write' as const], mode: 'ask' as const },
  ],
};

for (const [providerName, makeBed] of TOOL_BEDS) {
  describe(`append_text_file on ${providerName}`, () => {
    it('adds text at the end without reading or rewriting the file, and reports the new size', async () => {
      const calls: string[] = [];
      const bed = await makeBed({}, recordingMethods(calls));
      await bed.fixtures.writeFile('log.txt', 'one\n');
      calls.length = 0;
      expect(await bed.process.call('append_text_file', { path: './log.txt', content: 'two\n' })).toEqual({
        ok: true,
        result: { path: 'log.txt', bytes_appended: 4, size_bytes: 8, created: false },
      });
      expect(calls).toEqual(['appendFile']);
      expect(await bed.text('log.txt')).toBe('one\ntwo\n');
    });

    it('expected_size_bytes makes a retry safe: a stale size is content_conflict and writes nothing', async () => {
      const bed = await makeBed();
      await bed.fixtures.writeFile('log.txt', 'abc');
      const stale = await bed.process.call('append_text_file', { path: 'log.txt', content: 'x', expected_size_bytes: 2 });
      expect(stale).toMatchObject({
        ok: false,
        error: { code: 'content_conflict', effect: 'none', details: { expected_size_bytes: 2, actual_size_bytes: 3 } },
      });
      expect(await bed.text('log.txt')).toBe('abc');
      expect(await bed.process.call('append_text_file', { path: 'log.txt', content: 'd', expected_size_bytes: 3 })).toMatchObject({
        ok: true,
        result: { size_bytes: 4 },
      });
      // The same retry again: the size moved on, so the line is not written twice.
      expect(await bed.process.call('append_text_file', { path: 'log.txt', content: 'd', expected_size_bytes: 3 })).toMatchObject({
        ok: false,
        error: { code: 'content_conflict' },
      });
      expect(await bed.text('log.txt')).toBe('abcd');
    });

    it('a missing file is not_found unless create, which makes it whole with its parents', async () => {
      const bed = await makeBed();
      expect(await bed.process.call('append_text_file', { path: 'new/log.txt', content: 'x' })).toMatchObject({
        ok: false,
        error: { code: 'not_found', effect: 'none' },
      });
      expect(await bed.fixtures.kindOf('new')).toBe('missing');
      expect(await bed.process.call('append_text_file', { path: 'new/log.txt', content: 'x', create: true, expected_size_bytes: 1 })).toMatchObject({
        ok: false,
        error: { code: 'content_conflict', effect: 'none' },
      });
      expect(await bed.process.call('append_text_file', { path: 'new/log.txt', content: 'first\n', create: true })).toEqual({
        ok: true,
        result: { path: 'new/log.txt', bytes_appended: 6, size_bytes: 6, created: true },
      });
      expect(
        await bed.process.call('append_text_file', { path: 'new/log.txt', content: 'second\n', create: true, expected_size_bytes: 6 }),
      ).toMatchObject({
        ok: true,
        result: { created: false, size_bytes: 13 },
      });
      expect(await bed.text('new/log.txt')).toBe('first\nsecond\n');
    });

    it('never adds a byte-order mark to a file that holds bytes, and writes one to a new file as a write would', async () => {
      const bed = await makeBed();
      await bed.fixtures.writeFile('sig.txt', '\u{FEFF}a');
      await bed.fixtures.writeFile('wide.txt', Uint8Array.from([0xff, 0xfe, 0x61, 0x00]));
      await bed.process.call('append_text_file', { path: 'sig.txt', content: 'b', encoding: 'utf-8-sig' });
      await bed.process.call('append_text_file', { path: 'wide.txt', content: 'b', encoding: 'utf-16' });
      await bed.process.call('append_text_file', { path: 'fresh.txt', content: 'c', encoding: 'utf-8-sig', create: true });
      expect([...((await bed.fixtures.readFile('sig.txt')) ?? [])]).toEqual([0xef, 0xbb, 0xbf, 0x61, 0x62]);
      expect([...((await bed.fixtures.readFile('wide.txt')) ?? [])]).toEqual([0xff, 0xfe, 0x61, 0x00, 0x62, 0x00]);
      expect([...((await bed.fixtures.readFile('fresh.txt')) ?? [])]).toEqual([0xef, 0xbb, 0xbf, 0x63]);
      expect(await bed.process.call('read_text_file', { path: 'sig.txt', encoding: 'utf-8-sig' })).toMatchObject({
        ok: true,
        result: { content: 'ab' },
      });
    });

    it('refuses bad input, wrong kinds, links and hard links, changing nothing', async () => {
      const bed = await makeBed();
      await bed.fixtures.writeFile('log.txt', 'a');
      await bed.fixtures.makeDirectory('dir');
      await bed.fixtures.symlink('link.txt', bed.fixtures.outside.fileTarget('.'));
      await bed.fixtures.writeFile('twin-a.txt', 'twin');
      await bed.fixtures.hardLink('twin-a.txt', 'twin-b.txt');
      const outside = await bed.fixtures.outside.fingerprint();
      for (const [args, code] of [
        [{ path: 'log.txt', content: 'é', encoding: 'ascii' }, 'encode_failed'],
        [{ path: 'log.txt', content: 'x', expected_size_bytes: -1 }, 'invalid_arguments'],
        [{ path: 'log.txt', content: 'x', expected_size_bytes: '1' }, 'invalid_arguments'],
        [{ path: 'log.txt', content: 'x', create: 1 }, 'invalid_arguments'],
        [{ path: 'log.txt', content: 'x', encoding: 'ebcdic' }, 'unsupported_encoding'],
        [{ path: '.git/log', content: 'x', create: true }, 'protected_path'],
        [{ path: '../log.txt', content: 'x', create: true }, 'outside_workspace'],
        [{ path: 'dir', content: 'x', create: true }, 'not_a_file'],
        [{ path: 'log.txt/x', content: 'x', create: true }, 'not_a_directory'],
        [{ path: 'link.txt', content: 'x', create: true }, 'symlink_refused'],
        [{ path: 'twin-b.txt', content: 'x' }, 'hard_link_refused'],
      ] as const) {
        expect(await bed.process.call('append_text_file', args as never), JSON.stringify(args)).toMatchObject({
          ok: false,
          error: { code, effect: 'none' },
        });
      }
      expect(await bed.text('log.txt')).toBe('a');
      expect(await bed.text('twin-a.txt')).toBe('twin');
      expect(await bed.fixtures.outside.fingerprint()).toBe(outside);
    });

    it('needs the write right, and an ask approval shows the escaped text with its size and SHA-256', async () => {
      const seen: ApprovalRequest[] = [];
      let answer: 'approve' | 'reject' = 'reject';
      const bed = await makeBed({
        config: ASK_WRITE,
        approver: async (request) => {
          seen.push(request);
          return answer;
        },
      });
      await bed.fixtures.writeFile('top.txt', 'top');
      await bed.fixtures.writeFile('logs/app.log', 'start\n');
      expect(await bed.process.call('append_text_file', { path: 'top.txt', content: 'x' })).toMatchObject({ ok: false, error: { code: 'denied' } });
      const text = 'line \u{202E}two\n';
      expect(await bed.process.call('append_text_file', { path: 'logs/app.log', content: text })).toMatchObject({
        ok: false,
        error: { code: 'approval_rejected', effect: 'none' },
      });
      expect(await bed.text('logs/app.log')).toBe('start\n');
      answer = 'approve';
      expect(await bed.process.call('append_text_file', { path: 'logs/app.log', content: text })).toMatchObject({ ok: true });
      const bytes = new TextEncoder().encode(text);
      expect(seen[1]).toMatchObject({ tool: 'append_text_file', right: 'write', content_bytes: bytes.length, content_sha256: sha256(bytes) });
      // Every appended line, escaped, as an added line of a diff; size and SHA-256 cover the exact bytes.
      expect(seen[1]?.preview).toBe('+line \\u{202E}two');
      expect(seen[1]?.message).not.toContain('\u{202E}');
      expect(await bed.text('logs/app.log')).toBe(`start\n${text}`);
    });

    it('keeps the file mode', async () => {
      const bed = await makeBed();
      await bed.fixtures.writeFile('run.sh', 'echo 1\n');
      if (bed.hostPath === undefined || bed.modeOf === undefined) return;
      chmodSync(bed.hostPath('run.sh'), 0o751);
      await bed.process.call('append_text_file', { path: 'run.sh', content: 'echo 2\n' });
      expect(bed.modeOf('run.sh')).toBe(0o751);
    });

    it('says so clearly on a provider without appendFile', async () => {
      const bed = await makeBed({}, (provider) => {
        const { appendFile: _dropped, ...rest } = provider;
        return { ...rest, close: () => provider.close() };
      });
      await bed.fixtures.writeFile('log.txt', 'a');
      expect(await bed.process.call('append_text_file', { path: 'log.txt', content: 'b' })).toMatchObject({
        ok: false,
        error: { code: 'provider_failure', effect: 'none' },
      });
      expect(await bed.text('log.txt')).toBe('a');
    });
  });
}
