import { describe, expect, it } from 'vitest';
import { ENCODING_NAMES, resolveEncoding } from '../src/index.js';
import { checkedCall, createTestbed } from './support/harness.js';

// Each encoding gets every sample it can hold, so the round trip covers its non-ASCII range too.
const SAMPLES = [
  'plain ASCII text\nsecond line\r\n\ttab "quotes" \\ backslash\n',
  'héllo wörld ñ ç ß ¿ ¡ ø å\n',
  'cp1252 quotes “ ” ‘ ’ € – — …\n',
  'Привет, мир\n',
  '日本語のテキスト、カタカナ\n',
  '中文文本，简体\n',
  '繁體中文\n',
  '한국어 텍스트\n',
  'astral 😀 𝄞\n',
];

function sampleFor(encoding: string): string {
  const codec = resolveEncoding(encoding);
  return SAMPLES.filter((sample) => {
    try {
      return codec.decode(codec.encode(sample), { truncated: false }) === sample;
    } catch {
      return false;
    }
  }).join('');
}

describe('round trip file -> Object -> file', () => {
  it('covers at least the contract encodings', () => {
    expect(ENCODING_NAMES.length).toBeGreaterThanOrEqual(1);
    expect(ENCODING_NAMES).toContain('utf-8');
  });

  it.each([...ENCODING_NAMES])('is byte-identical under %s', async (encoding) => {
    const bed = await createTestbed();
    const codec = resolveEncoding(encoding);
    const text = sampleFor(encoding);
    expect(text.length).toBeGreaterThan(0);
    const bytes = codec.encode(text);
    await bed.fixtures.writeFile('in/source.txt', bytes);

    const created = await bed.ok('create_object_from_file', { name: ' doc ', path: 'in/source.txt', encoding });
    expect(created).toEqual({
      oid: expect.stringMatching(/^obj_[0-9a-f]{16}$/),
      namespace: bed.process.namespace,
      name: 'doc',
      type: 'artifact',
      source_path: 'in/source.txt',
      bytes_read: bytes.length,
      truncated: false,
    });
    const object = await bed.runtime.objects.get(bed.process.namespace, 'doc');
    expect(object).toMatchObject({ oid: created['oid'], label: 'normal', created_by: bed.process.id });
    expect(object.payload).toEqual({
      kind: 'workspace_text_file',
      source_path: 'in/source.txt',
      encoding: codec.name,
      content: text,
      bytes_read: bytes.length,
      truncated: false,
    });

    const written = await bed.ok('write_object_to_file', { name: 'doc', path: 'out/copy.txt', encoding });
    expect(written).toEqual({
      oid: created['oid'],
      namespace: bed.process.namespace,
      name: 'doc',
      path: 'out/copy.txt',
      bytes_written: bytes.length,
      created: true,
    });
    expect(Buffer.from((await bed.fixtures.readFile('out/copy.txt'))!).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('export', () => {
  it('encodes with its own encoding, not the one of the import', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'price: 5 € – “quoted”\n');
    await bed.ok('create_object_from_file', { name: 'a', path: 'a.txt' });
    const cp1252 = resolveEncoding('cp1252').encode('price: 5 € – “quoted”\n');
    expect(await bed.ok('write_object_to_file', { name: 'a', path: 'b.txt', encoding: 'cp1252' })).toMatchObject({ bytes_written: cp1252.length });
    expect(Buffer.from((await bed.fixtures.readFile('b.txt'))!).equals(Buffer.from(cp1252))).toBe(true);
    const utf16 = await bed.ok('write_object_to_file', { name: 'a', path: 'c.txt', encoding: 'utf-16' });
    expect((await bed.fixtures.readFile('c.txt'))!.subarray(0, 2)).toEqual(new Uint8Array([0xff, 0xfe]));
    expect(utf16['bytes_written']).toBe(2 + 2 * 'price: 5 € – “quoted”\n'.length);
  });

  it('replaces an existing file, or refuses with overwrite false', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'new text');
    await bed.fixtures.writeFile('target.txt', 'old text');
    await bed.ok('create_object_from_file', { name: 'a', path: 'a.txt' });
    expect(await bed.fail('write_object_to_file', { name: 'a', path: 'target.txt', overwrite: false })).toMatchObject({
      code: 'already_exists',
      effect: 'none',
    });
    expect(await bed.ok('write_object_to_file', { name: 'a', path: 'target.txt' })).toMatchObject({ created: false, bytes_written: 8 });
    expect(Buffer.from((await bed.fixtures.readFile('target.txt'))!).toString()).toBe('new text');
  });

  it('resolves paths against the process working directory and reports canonical identities', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('work/in.txt', 'x');
    await bed.ok('set_working_directory', { path: 'work' });
    expect(await bed.ok('create_object_from_file', { name: 'x', path: './in.txt' })).toMatchObject({ source_path: 'work/in.txt' });
    expect(await bed.ok('write_object_to_file', { name: 'x', path: '../top.txt' })).toMatchObject({ path: 'top.txt' });
  });
});

describe('the two truncation gates', () => {
  it('max_bytes: too_large without allow_truncated, a prefix with it', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('big.txt', 'abcdé'); // é is two bytes: 6 bytes in all
    expect(await bed.fail('create_object_from_file', { name: 'big', path: 'big.txt', max_bytes: 5 })).toMatchObject({
      code: 'too_large',
      effect: 'none',
    });
    expect(await bed.runtime.objects.find(bed.process.namespace, 'big')).toBeUndefined();
    const created = await bed.ok('create_object_from_file', { name: 'big', path: 'big.txt', max_bytes: 5, allow_truncated: true });
    expect(created).toMatchObject({ bytes_read: 5, truncated: true });
    // The cut é is dropped from the content, but its first byte still counts as read.
    expect((await bed.runtime.objects.get(bed.process.namespace, 'big')).payload).toEqual({
      kind: 'workspace_text_file',
      source_path: 'big.txt',
      encoding: 'utf-8',
      content: 'abcd',
      bytes_read: 5,
      truncated: true,
    });
  });

  it('payload bound: too_large without allow_truncated, else the longest code-point prefix that fits, with stored_bytes', async () => {
    const max = 300;
    const bed = await createTestbed({ config: { bounds: { object_payload_max_bytes: max } } });
    const text = 'a😀'.repeat(100); // 500 bytes of UTF-8, 300 UTF-16 units
    await bed.fixtures.writeFile('emoji.txt', text);
    expect(await bed.fail('create_object_from_file', { name: 'e', path: 'emoji.txt' })).toMatchObject({ code: 'too_large', effect: 'none' });
    const created = await bed.ok('create_object_from_file', { name: 'e', path: 'emoji.txt', allow_truncated: true });
    expect(created).toMatchObject({ bytes_read: 500, truncated: true });
    const payload = (await bed.runtime.objects.get(bed.process.namespace, 'e')).payload as Record<string, unknown>;
    const content = payload['content'] as string;
    expect(content.isWellFormed()).toBe(true);
    expect(text.startsWith(content)).toBe(true);
    expect(payload).toEqual({
      kind: 'workspace_text_file',
      source_path: 'emoji.txt',
      encoding: 'utf-8',
      content,
      bytes_read: 500,
      truncated: true,
      stored_bytes: Buffer.byteLength(content),
    });
    const size = (candidate: string) =>
      Buffer.byteLength(JSON.stringify({ ...payload, content: candidate, stored_bytes: Buffer.byteLength(candidate) }));
    expect(size(content)).toBeLessThanOrEqual(max);
    const nextCodePoint = [...text][[...content].length]!;
    expect(size(content + nextCodePoint)).toBeGreaterThan(max);
    // The export writes exactly what was stored.
    expect(await bed.ok('write_object_to_file', { name: 'e', path: 'out.txt' })).toMatchObject({ bytes_written: payload['stored_bytes'] });
  });

  it("counts stored_bytes in the Object's own encoding", async () => {
    const bed = await createTestbed({ config: { bounds: { object_payload_max_bytes: 200 } } });
    await bed.fixtures.writeFile('latin.txt', resolveEncoding('latin-1').encode('é'.repeat(200)));
    await bed.ok('create_object_from_file', { name: 'l', path: 'latin.txt', encoding: 'latin-1', allow_truncated: true });
    const payload = (await bed.runtime.objects.get(bed.process.namespace, 'l')).payload as Record<string, unknown>;
    expect(payload['stored_bytes']).toBe((payload['content'] as string).length);
    expect(payload['encoding']).toBe('latin-1');
  });

  it('is too_large even with allow_truncated when no content at all fits', async () => {
    const bed = await createTestbed({ config: { bounds: { object_payload_max_bytes: 40 } } });
    await bed.fixtures.writeFile('x.txt', 'content');
    expect(await bed.fail('create_object_from_file', { name: 'x', path: 'x.txt', allow_truncated: true })).toMatchObject({ code: 'too_large' });
  });
});

describe('Objects stay immutable, unique and out of the view', () => {
  it('never overwrites: a second import of a name is name_taken and keeps the first', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('one.txt', 'one');
    await bed.fixtures.writeFile('two.txt', 'two');
    const first = await bed.ok('create_object_from_file', { name: 'n', path: 'one.txt' });
    expect(await bed.fail('create_object_from_file', { name: ' n', path: 'two.txt' })).toMatchObject({ code: 'name_taken', effect: 'none' });
    expect((await bed.runtime.objects.get(bed.process.namespace, 'n')).oid).toBe(first['oid']);
    await bed.ok('write_object_to_file', { name: 'n', path: 'check.txt' });
    expect(Buffer.from((await bed.fixtures.readFile('check.txt'))!).toString()).toBe('one');
  });

  it('lets exactly one of 50 racing creators win, through call', async () => {
    const bed = await createTestbed({ config: { namespaces: [{ name: 'shared', rights: ['read', 'write'] }] } });
    await Promise.all(Array.from({ length: 50 }, (_, index) => bed.fixtures.writeFile(`f${index}.txt`, `file ${index}`)));
    const processes = Array.from({ length: 50 }, () => bed.runtime.spawn());
    const outcomes = await Promise.all(
      processes.map((process, index) =>
        checkedCall(bed.runtime, process, 'create_object_from_file', { name: 'race', path: `f${index}.txt`, namespace: 'shared' }),
      ),
    );
    const winners = outcomes.filter((outcome) => outcome.ok);
    expect(winners).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.error.code === 'name_taken')).toHaveLength(49);
    expect(await bed.runtime.objects.list('shared')).toHaveLength(1);
    expect((await bed.runtime.objects.get('shared', 'race')).oid).toBe(winners[0]!.ok ? winners[0]!.result['oid'] : undefined);
  });

  it('does not attach a created Object to the process MemoryView', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'a');
    await bed.ok('create_object_from_file', { name: 'a', path: 'a.txt', object_type: 'evidence' });
    expect(await bed.runtime.objects.view(bed.process.id).list()).toEqual([]);
    expect((await bed.runtime.objects.get(bed.process.namespace, 'a')).type).toBe('evidence');
  });
});
