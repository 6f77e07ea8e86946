import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { FileSystemProviderV1 } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime, mediaResultOf } from '../src/index.js';
import { checkedCall, createTestbed } from './support/harness.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR rest of a png')]);
const SAMPLES: readonly [string, Buffer, string, string][] = [
  ['PNG', PNG, 'image', 'image/png'],
  ['JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]), 'image', 'image/jpeg'],
  ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 'image', 'image/gif'],
  ['WebP', Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'), 'image', 'image/webp'],
  ['WAV', Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'), 'audio', 'audio/wav'],
  ['MP3 with ID3', Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), 'audio', 'audio/mpeg'],
  ['MP3 frame', Buffer.from([0xff, 0xfb, 0x90, 0x64, 0x00, 0x00]), 'audio', 'audio/mpeg'],
  ['OGG', Buffer.from('OggS\x00\x02\x00\x00', 'latin1'), 'audio', 'audio/ogg'],
  ['PDF', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), 'document', 'application/pdf'],
];

describe('read_media_file', () => {
  it.each(SAMPLES)('reads a %s by its magic bytes, whatever its name, with its size and SHA-256', async (_name, bytes, mediaType, mimeType) => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('media/file.txt', bytes);
    const result = await bed.ok('read_media_file', { path: 'media/file.txt' });
    expect(result).toEqual({
      path: 'media/file.txt',
      media_type: mediaType,
      mime_type: mimeType,
      size_bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      data: bytes.toString('base64'),
    });
    expect(mediaResultOf(result)).toEqual(result);
  });

  it.each([
    ['a text file named .png', Buffer.from('not an image\n'), 'text/plain'],
    ['a BMP', Buffer.from('BM\x36\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00', 'latin1'), 'image/bmp'],
    ['a zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), 'application/zip'],
    ['AAC in ADTS (not MP3)', Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x00, 0x1f]), 'application/octet-stream'],
    ['an empty file', Buffer.alloc(0), 'empty'],
    ['a PDF signature not at byte 0', Buffer.from(' %PDF-1.7\n'), 'text/plain'],
  ])('refuses %s with decode_failed naming the detected type', async (_name, bytes, detected) => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('x.png', bytes);
    const error = await bed.fail('read_media_file', { path: 'x.png' });
    expect(error).toMatchObject({ code: 'decode_failed', effect: 'none', details: { path: 'x.png', detected_type: detected } });
  });

  it('refuses a file over max_bytes or bounds.media_max_bytes whole (never cut), reading the bytes once and never stat-ing first', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    const calls: string[] = [];
    const counting = new Proxy(provider, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(key));
          return value.apply(target, args);
        };
      },
    }) as FileSystemProviderV1;
    const runtime = await createRuntime({ provider: counting, config: { bounds: { media_max_bytes: 64 } } });
    const process = runtime.spawn();
    await fixtures.writeFile('big.png', Buffer.concat([PNG, Buffer.alloc(100)]));
    await fixtures.writeFile('small.png', PNG);
    const tooBig = await checkedCall(runtime, process, 'read_media_file', { path: 'big.png' });
    expect(tooBig).toMatchObject({ ok: false, error: { code: 'too_large', effect: 'none', details: { path: 'big.png', max_bytes: 64 } } });
    const smaller = await checkedCall(runtime, process, 'read_media_file', { path: 'small.png', max_bytes: 8 });
    expect(smaller).toMatchObject({ ok: false, error: { code: 'too_large', details: { max_bytes: 8 } } });
    expect(await checkedCall(runtime, process, 'read_media_file', { path: 'small.png', max_bytes: 65 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments' },
    });
    calls.length = 0;
    expect(await checkedCall(runtime, process, 'read_media_file', { path: 'small.png' })).toMatchObject({ ok: true });
    expect(calls).toEqual(['readFile']);
  });

  it('defaults to a 5 MiB bound, and a 5 MiB image passes the result bound although its base64 is larger than result_max_bytes', async () => {
    const bed = await createTestbed();
    const max = 5 * 1024 * 1024;
    expect(bed.runtime.tools.find((tool) => tool.name === 'read_media_file')!.inputSchema).toMatchObject({
      properties: { max_bytes: { default: max, maximum: max } },
    });
    const big = Buffer.concat([PNG, Buffer.alloc(max - PNG.length, 7)]);
    await bed.fixtures.writeFile('shot.png', big);
    const result = await bed.ok('read_media_file', { path: 'shot.png' });
    expect(result.size_bytes).toBe(max);
    expect(Buffer.from(result.data as string, 'base64').equals(big)).toBe(true);
    await bed.fixtures.writeFile('over.png', Buffer.concat([big, Buffer.from([1])]));
    expect(await bed.fail('read_media_file', { path: 'over.png' })).toMatchObject({ code: 'too_large' });
  });

  it('keeps every rule of a text read: grants, links, hard links, .git, paths outside the root', async () => {
    const bed = await createTestbed({ config: { grants: [{ path: 'public', tree: true, rights: ['read'] }] } });
    await bed.fixtures.writeFile('public/a.png', PNG);
    await bed.fixtures.writeFile('private/b.png', PNG);
    await bed.fixtures.symlink('public/link.png', 'a.png');
    await bed.fixtures.hardLink('public/a.png', 'public/twin.png');
    expect(await bed.fail('read_media_file', { path: 'private/b.png' })).toMatchObject({ code: 'denied', effect: 'none' });
    expect(await bed.fail('read_media_file', { path: 'private/missing.png' })).toMatchObject({ code: 'denied' });
    expect(await bed.fail('read_media_file', { path: 'public/link.png' })).toMatchObject({ code: 'symlink_refused' });
    expect(await bed.fail('read_media_file', { path: 'public/twin.png' })).toMatchObject({ code: 'hard_link_refused' });
    expect(await bed.fail('read_media_file', { path: 'public/.GIT/x.png' })).toMatchObject({ code: 'protected_path' });
    expect(await bed.fail('read_media_file', { path: '../x.png' })).toMatchObject({ code: 'outside_workspace' });
    expect(await bed.fail('read_media_file', { path: 'public' })).toMatchObject({ code: 'not_a_file' });
  });
});

describe('mediaResultOf', () => {
  const media = { path: 'a.png', media_type: 'image', mime_type: 'image/png', size_bytes: 1, sha256: 'a'.repeat(64), data: 'AA==' };

  it('takes only a result whose own keys are a media result', () => {
    expect(mediaResultOf(media)).toEqual(media);
    expect(mediaResultOf({ ...media, extra: true })).toBeUndefined();
    expect(mediaResultOf({ entries: [{ name: 'a.png' }], truncated: false })).toBeUndefined();
    // A media result is JSON data: fields a prototype lends do not make one.
    const { data, media_type, ...rest } = media;
    expect(mediaResultOf(Object.assign(Object.create({ data, media_type }), rest))).toBeUndefined();
    expect(mediaResultOf(null)).toBeUndefined();
    expect(mediaResultOf('AA==')).toBeUndefined();
  });
});
