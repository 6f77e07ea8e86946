#!/usr/bin/env python3
"""Exhaustive comparison of the TypeScript codecs against Python's (run by hand after regenerating tables).

    python3 packages/tools/scripts/compare-encodings.py [codec ...]

Bundles src/encodings with the esbuild that tsup brings, then for each codec compares:
- decode of every 1- and 2-byte input (the text, or the byte offset of the failure), euc-jp's `8F xx yy`, gb18030's `[81-FE][30-39][81-FE][30-39]`,
  euc-kr's `A4 D4 A4 x A4 y A4 z`;
- encode of every Unicode scalar;
- truncated decode of `A` + every proper prefix of every valid multi-byte sequence found above (must give `A`).
Prints the differences (at most 10 per kind) and exits 1 if there are any.
"""
import json
import pathlib
import subprocess
import sys
import tempfile

PACKAGE = pathlib.Path(__file__).resolve().parent.parent
ROOT = PACKAGE.parent.parent
CODECS = {'utf-8': 'utf-8', 'utf-16-le': 'utf-16-le', 'utf-16-be': 'utf-16-be', 'ascii': 'ascii',
          'latin-1': 'latin-1', 'cp1252': 'cp1252', 'koi8-r': 'koi8_r', 'shift_jis': 'shift_jis',
          'euc-jp': 'euc_jp', 'gbk': 'gbk', 'gb18030': 'gb18030', 'big5': 'big5', 'euc-kr': 'euc_kr'}

HARNESS = r"""
import { readFileSync, writeFileSync } from 'node:fs';
import { resolveEncoding } from './encodings.mjs';
const [name, inputsPath, outPath, validPath] = process.argv.slice(2);
const codec = resolveEncoding(name);
const data = readFileSync(inputsPath);
const lines = [];
for (let offset = 0; offset < data.length; ) {
  const length = data[offset];
  const bytes = data.subarray(offset + 1, offset + 1 + length);
  offset += 1 + length;
  try { lines.push(Buffer.from(codec.decode(bytes, { truncated: false }), 'utf16le').toString('hex')); }
  catch (error) { lines.push(error.code === 'decode_failed' ? `E${error.details.byte_offset}` : 'X ' + error.message); }
}
const encoded = [];
for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
  try { encoded.push(Buffer.from(codec.encode(String.fromCodePoint(codePoint))).toString('hex')); }
  catch (error) { encoded.push(error.code === 'encode_failed' ? 'E' : 'X ' + error.message); }
}
const prefixFailures = [];
for (const sequence of JSON.parse(readFileSync(validPath, 'utf8'))) {
  const bytes = Buffer.from('41' + sequence, 'hex');
  for (let end = 2; end < bytes.length; end++) {
    let result;
    try { result = codec.decode(bytes.subarray(0, end), { truncated: true }); } catch (error) { result = error.code; }
    if (result !== 'A') prefixFailures.push(bytes.subarray(0, end).toString('hex') + ' -> ' + result);
  }
}
writeFileSync(outPath, JSON.stringify({ decoded: lines, encoded, prefixFailures }));
"""


def inputs_for(name):
    singles = [bytes([b]) for b in range(256)]
    pairs = [bytes([a, b]) for a in range(256) for b in range(256)]
    extra = []
    if name == 'euc-jp':
        extra = [bytes([0x8F, a, b]) for a in range(256) for b in range(256)]
    if name == 'gb18030':
        extra = [bytes([a, b, c, d]) for a in range(0x81, 0xFF) for b in range(0x30, 0x3A)
                 for c in range(0x81, 0xFF) for d in range(0x30, 0x3A)]
    if name == 'euc-kr':
        extra = [bytes([0xA4, 0xD4, 0xA4, x, 0xA4, y, 0xA4, z]) for x in range(0xA0, 0x100)
                 for y in range(0xA0, 0x100) for z in range(0xA0, 0x100)]
    if name in ('utf-16-le', 'utf-16-be'):
        extra = [bytes([a, b, c, d]) for a in range(256) for b in (0xD8, 0xDB, 0xDC, 0x41) for c in range(0, 256, 17)
                 for d in (0xDC, 0xDF, 0xD8, 0x00)]
    if name == 'utf-8':
        extra = [bytes([a, b, c]) for a in range(0xE0, 0xF0) for b in range(256) for c in range(256)]
        extra += [bytes([a, b, c, d]) for a in range(0xF0, 0x100) for b in range(0x80, 0xC0) for c in (0x80, 0xBF, 0x41)
                  for d in (0x80, 0xBF, 0xC0)]
    return singles + pairs + extra


def python_decode(data, codec):
    try:
        return data.decode(codec).encode('utf-16-le').hex()
    except UnicodeDecodeError as error:
        return f'E{error.start}'


def python_encode(code_point, codec):
    try:
        return chr(code_point).encode(codec).hex()
    except UnicodeEncodeError:
        return 'E'


def report(kind, differences):
    if differences:
        print(f'  {kind}: {len(differences)} differences, e.g. {differences[:10]}')
    return len(differences)


def main():
    names = sys.argv[1:] or list(CODECS)
    esbuild = next(ROOT.glob('node_modules/.pnpm/esbuild@*/node_modules/esbuild/bin/esbuild'))
    total = 0
    with tempfile.TemporaryDirectory() as temporary:
        work = pathlib.Path(temporary)
        subprocess.run([str(esbuild), str(PACKAGE / 'src/encodings/index.ts'), '--bundle', '--platform=node',
                        '--format=esm', '--conditions=@libos/source', f'--outfile={work / "encodings.mjs"}',
                        '--log-level=warning'], check=True, cwd=PACKAGE)
        (work / 'harness.mjs').write_text(HARNESS)
        for name in names:
            codec = CODECS[name]
            inputs = inputs_for(name)
            (work / 'inputs.bin').write_bytes(b''.join(bytes([len(i)]) + i for i in inputs))
            expected = [python_decode(i, codec) for i in inputs]
            valid = sorted({i.hex() for i, e in zip(inputs, expected) if e[0] != 'E' and len(i) > 1
                            and python_decode(i[:1], codec)[0] == 'E'}) if 'utf-16' not in name else []
            (work / 'valid.json').write_text(json.dumps(valid))
            subprocess.run(['node', str(work / 'harness.mjs'), name, str(work / 'inputs.bin'), str(work / 'out.json'),
                            str(work / 'valid.json')], check=True)
            actual = json.loads((work / 'out.json').read_text())
            scalars = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
            print(f'{name}: {len(inputs)} decode inputs, {len(scalars)} scalars, {len(valid)} valid sequences')
            total += report('decode', [(i.hex(), e, a) for i, e, a in zip(inputs, expected, actual['decoded']) if e != a])
            total += report('encode', [(hex(c), e, a) for c, a in zip(scalars, actual['encoded'])
                                       if (e := python_encode(c, codec)) != a])
            total += report('truncated prefixes', actual['prefixFailures'])
    print('no differences' if total == 0 else f'{total} differences')
    sys.exit(1 if total else 0)


if __name__ == '__main__':
    main()
