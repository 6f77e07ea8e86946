import { createHash } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import type { FileSystemProviderV1 } from '@libos/core';
import { DEFAULT_BOUNDS } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { TOOL_BEDS } from './file-tool-beds.js';

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}\n`).join('');

// Counts every byte the provider hands back, whichever read method served it.
function countingReads(counter: { bytes: number }) {
  return (provider: FileSystemProviderV1): FileSystemProviderV1 => ({
    ...provider,
    readFile: async (path, options) => {
      const read = await provider.readFile(path, options);
      counter.bytes += read.bytes.length;
      return read;
    },
    ...(provider.readFileRange === undefined
      ? {}
      : {
          readFileRange: async (path, options) => {
            const read = await provider.readFileRange!(path, options);
            counter.bytes += read.bytes.length;
            return read;
          },
        }),
    close: () => provider.close(),
  });
}

function withoutRanges(provider: FileSystemProviderV1): FileSystemProviderV1 {
  const { readFileRange: _dropped, ...rest } = provider;
  return { ...rest, close: () => provider.close() };
}

for (const [providerName, makeBed] of TOOL_BEDS) {
  for (const [variant, wrap] of [
    ['', undefined],
    [' without readFileRange', withoutRanges],
  ] as const) {
    describe(`read_text_file line ranges on ${providerName}${variant}`, () => {
      it('start_line returns whole lines from that line on, with their numbers and the hash of the bytes returned', async () => {
        const bed = await makeBed({}, wrap);
        await bed.fixtures.writeFile('f.txt', numbered(10));
        const read = await bed.process.call('read_text_file', { path: 'f.txt', start_line: 4 });
        const expected = numbered(10).split('\n').slice(3).join('\n');
        expect(read).toEqual({
          ok: true,
          result: {
            path: 'f.txt',
            content: expected,
            encoding: 'utf-8',
            bytes_read: expected.length,
            truncated: false,
            content_sha256: sha256(expected),
            start_line: 4,
            end_line: 10,
          },
        });
        // max_bytes cuts after the last whole line that fits.
        expect(await bed.process.call('read_text_file', { path: 'f.txt', start_line: 2, max_bytes: 16 })).toMatchObject({
          ok: true,
          result: { content: 'line 2\nline 3\n', truncated: true, start_line: 2, end_line: 3, bytes_read: 14 },
        });
      });

      it('a start_line past the end gives empty content and end_line one less', async () => {
        const bed = await makeBed({}, wrap);
        await bed.fixtures.writeFile('f.txt', 'a\nb\n');
        await bed.fixtures.writeFile('g.txt', 'a\nb');
        await bed.fixtures.writeFile('empty.txt', '');
        for (const [path, line] of [
          ['f.txt', 3],
          ['g.txt', 3],
          ['empty.txt', 1],
          ['f.txt', 1000],
        ] as const) {
          expect(await bed.process.call('read_text_file', { path, start_line: line })).toMatchObject({
            ok: true,
            result: { content: '', truncated: false, start_line: line, end_line: line - 1, content_sha256: sha256('') },
          });
        }
        expect(await bed.process.call('read_text_file', { path: 'g.txt', start_line: 2 })).toMatchObject({
          ok: true,
          result: { content: 'b', end_line: 2 },
        });
      });

      it('tail_lines returns the last lines; a file that fits gives absolute numbers', async () => {
        const bed = await makeBed({}, wrap);
        await bed.fixtures.writeFile('f.txt', numbered(50));
        await bed.fixtures.writeFile('short.txt', 'only\nthree\nlines');
        expect(await bed.process.call('read_text_file', { path: 'f.txt', tail_lines: 2 })).toMatchObject({
          ok: true,
          result: { content: 'line 49\nline 50\n', truncated: false, start_line: 49, end_line: 50, content_sha256: sha256('line 49\nline 50\n') },
        });
        expect(await bed.process.call('read_text_file', { path: 'short.txt', tail_lines: 10 })).toMatchObject({
          ok: true,
          result: { content: 'only\nthree\nlines', truncated: false, start_line: 1, end_line: 3 },
        });
        // Bounded by max_bytes, the tail keeps its end, from the first whole line that fits.
        const cut = await bed.process.call('read_text_file', { path: 'f.txt', tail_lines: 5, max_bytes: 20 });
        expect(cut).toMatchObject({ ok: true, result: { content: 'line 49\nline 50\n', truncated: true } });
      });

      it('never cuts inside a character, in UTF-8 and UTF-16', async () => {
        const bed = await makeBed({}, wrap);
        await bed.fixtures.writeFile('wide.txt', 'éééééé');
        await bed.fixtures.writeFile('le.txt', Buffer.from('\u{FEFF}a\n😀😀\nb\n', 'utf16le'));
        const head = await bed.process.call('read_text_file', { path: 'wide.txt', start_line: 1, max_bytes: 5 });
        expect(head).toMatchObject({ ok: true, result: { content: 'éé', bytes_read: 4, truncated: true } });
        const tail = await bed.process.call('read_text_file', { path: 'wide.txt', tail_lines: 1, max_bytes: 5 });
        expect(tail).toMatchObject({ ok: true, result: { content: 'éé', bytes_read: 4, truncated: true } });
        expect(await bed.process.call('read_text_file', { path: 'le.txt', encoding: 'utf-16', start_line: 2 })).toMatchObject({
          ok: true,
          result: { content: '😀😀\nb\n', start_line: 2, end_line: 3 },
        });
        expect(await bed.process.call('read_text_file', { path: 'le.txt', encoding: 'utf-16', tail_lines: 3 })).toMatchObject({
          ok: true,
          result: { content: 'a\n😀😀\nb\n', start_line: 1, end_line: 3 },
        });
        // 6 bytes of the second line's 8: one whole surrogate pair only.
        expect(await bed.process.call('read_text_file', { path: 'le.txt', encoding: 'utf-16', start_line: 2, max_bytes: 6 })).toMatchObject({
          ok: true,
          result: { content: '😀', truncated: true },
        });
      });

      it('a tail in a multi-byte encoding scans the file and knows its line numbers', async () => {
        const bed = await makeBed({}, wrap);
        // 行 is 8D 73 in Shift_JIS: 30 lines of it and a number.
        const lines = Array.from({ length: 30 }, (_, index) => Buffer.concat([Buffer.from([0x8d, 0x73]), Buffer.from(`${index + 1}\n`)]));
        await bed.fixtures.writeFile('sjis.txt', Buffer.concat(lines));
        expect(await bed.process.call('read_text_file', { path: 'sjis.txt', encoding: 'shift_jis', tail_lines: 2 })).toMatchObject({
          ok: true,
          result: { content: '行29\n行30\n', start_line: 29, end_line: 30 },
        });
      });

      it('refuses start_line with tail_lines, and bad numbers, before reading', async () => {
        const bed = await makeBed({}, wrap);
        await bed.fixtures.writeFile('f.txt', 'a\n');
        for (const args of [
          { path: 'f.txt', start_line: 1, tail_lines: 1 },
          { path: 'f.txt', start_line: 0 },
          { path: 'f.txt', tail_lines: 0 },
          { path: 'f.txt', tail_lines: '3' },
          { path: 'f.txt', start_line: 1.5 },
        ]) {
          expect(await bed.process.call('read_text_file', args as never), JSON.stringify(args)).toMatchObject({
            ok: false,
            error: { code: 'invalid_arguments', effect: 'none' },
          });
        }
      });
    });
  }

  describe(`read_text_file scanning bounds on ${providerName}`, () => {
    it('a start_line beyond read_scan_max_bytes is too_large, one within it is read', async () => {
      const bed = await makeBed({ config: { bounds: { read_scan_max_bytes: 4096 } } });
      await bed.fixtures.writeFile('f.txt', numbered(2000));
      expect(await bed.process.call('read_text_file', { path: 'f.txt', start_line: 1500 })).toMatchObject({
        ok: false,
        error: { code: 'too_large', effect: 'none' },
      });
      expect(await bed.process.call('read_text_file', { path: 'f.txt', start_line: 400, max_bytes: 9 })).toMatchObject({
        ok: true,
        result: { content: 'line 400\n', start_line: 400, end_line: 400 },
      });
      // A tail reads backwards, so the scan bound does not limit it; the end it read is not the whole file.
      expect(await bed.process.call('read_text_file', { path: 'f.txt', tail_lines: 1, max_bytes: 20 })).toMatchObject({
        ok: true,
        result: { content: 'line 2000\n', start_line: null, end_line: null },
      });
    });

    it('the default scan bound is 64 MiB', () => {
      expect(DEFAULT_BOUNDS.read_scan_max_bytes).toBe(67_108_864);
    });
  });
}

describe('a tail of a huge file', () => {
  it('100 lines of a 1 GiB UTF-8 file read only its end', async () => {
    const counter = { bytes: 0 };
    const [, makeLocal] = TOOL_BEDS.find(([name]) => name === 'local')!;
    const bed = await makeLocal({}, countingReads(counter));
    const GiB = 1 << 30;
    const tail = numbered(100);
    // Sparse: a gigabyte of zeros the disk never stores, ended by a newline, then 100 lines at the very end.
    const fd = openSync(bed.hostPath!('huge.log'), 'w');
    try {
      ftruncateSync(fd, GiB - tail.length);
      writeSync(fd, `\n${tail}`, GiB - tail.length - 1);
    } finally {
      closeSync(fd);
    }
    expect(await bed.process.call('read_text_file', { path: 'huge.log', tail_lines: 100 })).toEqual({
      ok: true,
      result: {
        path: 'huge.log',
        content: tail,
        encoding: 'utf-8',
        bytes_read: tail.length,
        truncated: false,
        content_sha256: sha256(tail),
        start_line: null,
        end_line: null,
      },
    });
    expect(counter.bytes).toBeLessThanOrEqual(DEFAULT_BOUNDS.read_max_bytes_default + 1);
  });
});
