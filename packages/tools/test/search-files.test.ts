import { describe, expect, it } from 'vitest';
import { createTestbed } from './support/harness.js';

type Bed = Awaited<ReturnType<typeof createTestbed>>;

async function tree(bed: Bed, files: Record<string, string>) {
  for (const [path, content] of Object.entries(files)) await bed.fixtures.writeFile(path, content);
}

const found = (result: Record<string, unknown>) =>
  (result.matches as { path: string; line: number; column: number; text: string }[]).map(
    (match) => `${match.path}:${match.line}:${match.column}:${match.text}`,
  );

describe('search_files', () => {
  it('finds a literal in every file, depth first in code-point order, one match per line with 1-based line and code-point column', async () => {
    const bed = await createTestbed();
    await tree(bed, {
      'b.txt': 'no\nneedle here\r\nand needle needle\n',
      'a/z.txt': '😀 needle\n',
      'a/B.txt': 'needle',
      'Z.txt': 'x needle',
      'c.txt': 'nothing',
    });
    const result = await bed.ok('search_files', { path: '.', query: 'needle' });
    expect(found(result)).toEqual([
      'Z.txt:1:3:x needle',
      'a/B.txt:1:1:needle',
      'a/z.txt:1:3:😀 needle',
      'b.txt:2:1:needle here',
      'b.txt:3:5:and needle needle',
    ]);
    expect(result).toMatchObject({ path: '.', count: 5, truncated: false, files_searched: 5 });
  });

  it('searches below a working directory and reports canonical paths', async () => {
    const bed = await createTestbed();
    await tree(bed, { 'src/lib/one.ts': 'export const one = 1;\n', 'src/two.ts': 'const two = 2;\n', 'other.ts': 'export x' });
    await bed.ok('set_working_directory', { path: 'src' });
    const result = await bed.ok('search_files', { path: 'lib/..', query: 'export' });
    expect(found(result)).toEqual(['src/lib/one.ts:1:1:export const one = 1;']);
    expect(result.path).toBe('src');
  });

  it('matches case-insensitively, and with regex through RE2', async () => {
    const bed = await createTestbed();
    await tree(bed, { 'a.txt': 'Alpha\nALPHA beta\nbeta 42\nÉclair éclair\n' });
    expect(found(await bed.ok('search_files', { path: '.', query: 'alpha', case_sensitive: false }))).toEqual([
      'a.txt:1:1:Alpha',
      'a.txt:2:1:ALPHA beta',
    ]);
    expect(found(await bed.ok('search_files', { path: '.', query: '\\d+$', regex: true }))).toEqual(['a.txt:3:6:beta 42']);
    expect(found(await bed.ok('search_files', { path: '.', query: '^beta', regex: true }))).toEqual(['a.txt:3:1:beta 42']);
    expect(found(await bed.ok('search_files', { path: '.', query: 'éCLAIR', case_sensitive: false }))).toEqual(['a.txt:4:1:Éclair éclair']);
    expect(found(await bed.ok('search_files', { path: '.', query: 'l.h', regex: true, case_sensitive: false }))).toEqual([
      'a.txt:1:2:Alpha',
      'a.txt:2:2:ALPHA beta',
    ]);
    expect(found(await bed.ok('search_files', { path: '.', query: 'l.h', regex: true }))).toEqual(['a.txt:1:2:Alpha']);
    // A literal is literal: regex metacharacters match themselves.
    await tree(bed, { 'b.txt': 'price: $4.99 (net)\n' });
    expect(found(await bed.ok('search_files', { path: '.', query: '$4.99 (net)' }))).toEqual(['b.txt:1:8:price: $4.99 (net)']);
    expect(found(await bed.ok('search_files', { path: '.', query: '$4.99 (NET)', case_sensitive: false }))).toEqual(['b.txt:1:8:price: $4.99 (net)']);
  });

  it('answers a catastrophic-backtracking pattern over a long line at once, and refuses what RE2 cannot run', async () => {
    const bed = await createTestbed();
    await tree(bed, { 'evil.txt': `${'a'.repeat(50_000)}!\n` });
    for (const query of ['(a+)+$', '(a|aa)*b', '(a*)*b', '(?:a|a)*c']) {
      expect(await bed.ok('search_files', { path: '.', query, regex: true })).toMatchObject({ count: 0, files_searched: 1 });
    }
    for (const query of ['(a)\\1', '(?=a)', '(?<=a)b', '(', 'a{1001}']) {
      expect(await bed.fail('search_files', { path: '.', query, regex: true })).toMatchObject({ code: 'invalid_arguments', effect: 'none' });
    }
  });

  it('keeps only files matching glob: a name anywhere without a slash, the relative path with one', async () => {
    const bed = await createTestbed();
    await tree(bed, { 'top.ts': 'hit', 'src/a.ts': 'hit', 'src/a.js': 'hit', 'src/deep/b.ts': 'hit', 'src/deep/c.tsx': 'hit', 'x[1].ts': 'hit' });
    const paths = async (glob: string) =>
      ((await bed.ok('search_files', { path: '.', query: 'hit', glob })).matches as { path: string }[]).map((match) => match.path);
    expect(await paths('*.ts')).toEqual(['src/a.ts', 'src/deep/b.ts', 'top.ts', 'x[1].ts']);
    expect(await paths('src/*.ts')).toEqual(['src/a.ts']);
    expect(await paths('src/**/*.ts')).toEqual(['src/a.ts', 'src/deep/b.ts']);
    expect(await paths('**/deep/*')).toEqual(['src/deep/b.ts', 'src/deep/c.tsx']);
    expect(await paths('?.[jt]s')).toEqual(['src/a.js', 'src/a.ts', 'src/deep/b.ts']);
    expect(await paths('[!a].ts')).toEqual(['src/deep/b.ts']);
    expect(await paths('x\\[1\\].ts')).toEqual(['x[1].ts']);
    // A glob written to backtrack costs nothing special either.
    await tree(bed, { [`${'a'.repeat(200)}.txt`]: 'hit' });
    expect(await paths('*a*a*a*a*a*a*a*a*a*b')).toEqual([]);
    expect(await bed.fail('search_files', { path: '.', query: 'hit', glob: '[abc' })).toMatchObject({ code: 'invalid_arguments' });
  });

  it('never follows links, never enters .git aliases, skips hard-linked files, FIFOs and undecodable files', async () => {
    const bed = await createTestbed();
    await tree(bed, { 'plain.txt': 'OUTSIDE? no, inside', '.git/config': 'OUTSIDE', '.GIT./x': 'OUTSIDE', 'bad.txt': '' });
    await bed.fixtures.writeFile('bad.txt', new Uint8Array([0x4f, 0x55, 0x54, 0x53, 0x49, 0x44, 0x45, 0xff]));
    await bed.fixtures.symlink('file-link', bed.fixtures.outside.fileTarget('.'));
    await bed.fixtures.symlink('dir-link', bed.fixtures.outside.directoryTarget('.'));
    await bed.fixtures.outside.hardLinkFromOutside('hard.txt');
    await bed.fixtures.fifo('pipe');
    const result = await bed.ok('search_files', { path: '.', query: 'OUTSIDE' });
    expect(found(result)).toEqual(['plain.txt:1:1:OUTSIDE? no, inside']);
    expect(result.files_searched).toBe(2); // plain.txt and bad.txt (which did not decode)
    expect(await bed.fail('search_files', { path: 'dir-link', query: 'x' })).toMatchObject({ code: 'symlink_refused', effect: 'none' });
  });

  it('fails for a root that is missing, a file, or protected', async () => {
    const bed = await createTestbed();
    await tree(bed, { 'f.txt': 'x' });
    expect(await bed.fail('search_files', { path: 'missing', query: 'x' })).toMatchObject({ code: 'not_found', effect: 'none' });
    expect(await bed.fail('search_files', { path: 'f.txt', query: 'x' })).toMatchObject({ code: 'not_a_directory', effect: 'none' });
    expect(await bed.fail('search_files', { path: '.git', query: 'x' })).toMatchObject({ code: 'protected_path', effect: 'none' });
    expect(await bed.fail('search_files', { path: '..', query: 'x' })).toMatchObject({ code: 'outside_workspace', effect: 'none' });
    expect(await bed.fail('search_files', { path: '.', query: '' })).toMatchObject({ code: 'invalid_arguments' });
    expect(await bed.fail('search_files', { path: '.', query: 'x', max_results: 1001 })).toMatchObject({ code: 'invalid_arguments' });
    expect(await bed.fail('search_files', { path: '.', query: 'x', max_files: 100_001 })).toMatchObject({ code: 'invalid_arguments' });
    expect(await bed.fail('search_files', { path: '.', query: 'x', encoding: 'klingon' })).toMatchObject({ code: 'unsupported_encoding' });
  });

  it('stops at max_results, max_files and the result bound, saying truncated, and not one match early', async () => {
    const bed = await createTestbed();
    const files: Record<string, string> = {};
    for (let index = 0; index < 10; index++) files[`f${index}.txt`] = 'hit\nhit\n';
    await tree(bed, files);
    expect(await bed.ok('search_files', { path: '.', query: 'hit', max_results: 20 })).toMatchObject({
      count: 20,
      truncated: false,
      files_searched: 10,
    });
    expect(await bed.ok('search_files', { path: '.', query: 'hit', max_results: 19 })).toMatchObject({
      count: 19,
      truncated: true,
      files_searched: 10,
    });
    expect(await bed.ok('search_files', { path: '.', query: 'hit', max_files: 3 })).toMatchObject({ count: 6, truncated: true, files_searched: 3 });
    expect(await bed.ok('search_files', { path: '.', query: 'hit', max_files: 10 })).toMatchObject({
      count: 20,
      truncated: false,
      files_searched: 10,
    });
    const small = await createTestbed({ config: { bounds: { result_max_bytes: 400 } } });
    await tree(small, files);
    const cut = await small.ok('search_files', { path: '.', query: 'hit' });
    expect(cut.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(400);
    expect(cut.count).toBeGreaterThan(0);
  });

  it('searches the decoded prefix of a file cut at max_bytes_per_file, dropping a character cut in half', async () => {
    const bed = await createTestbed();
    await tree(bed, { 'long.txt': `early é\n${'x'.repeat(100)}late\n` });
    expect(found(await bed.ok('search_files', { path: '.', query: 'late', max_bytes_per_file: 50 }))).toEqual([]);
    expect(found(await bed.ok('search_files', { path: '.', query: 'early', max_bytes_per_file: 7 }))).toEqual(['long.txt:1:1:early ']);
    expect(found(await bed.ok('search_files', { path: '.', query: 'late' }))).toEqual([`long.txt:2:101:${'x'.repeat(100)}late`]);
  });

  it('decodes with the given encoding and cuts a long line to 500 code points', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('l1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(found(await bed.ok('search_files', { path: '.', query: 'café', encoding: 'latin-1' }))).toEqual(['l1.txt:1:1:café']);
    await bed.fixtures.writeFile('wide.txt', `${'😀'.repeat(600)}needle`);
    const [match] = (await bed.ok('search_files', { path: '.', query: 'needle', glob: 'wide.txt' })).matches as { column: number; text: string }[];
    expect(match!.column).toBe(601);
    expect([...match!.text]).toHaveLength(500);
  });
});
