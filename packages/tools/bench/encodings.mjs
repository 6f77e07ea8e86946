// Decode and encode 1 MiB per codec against a baseline in the same process (median of 21 runs after 5 warm-ups).
// Baselines: TextDecoder (strict only for the UTF family; its legacy labels are not Python-exact) and iconv-lite
// (never strict). Asserts nothing. Run: npx tsup && node bench/encodings.mjs
import { performance } from 'node:perf_hooks';
import iconv from 'iconv-lite';
import { resolveEncoding } from '@libos/tools';

const MIB = 1024 * 1024;

function median(run) {
  for (let index = 0; index < 5; index++) run();
  const times = [];
  for (let index = 0; index < 21; index++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[10];
}

function sample(alphabet) {
  let text = '';
  while (text.length < MIB) text += alphabet;
  return text;
}

const cases = [
  ['utf-8', sample('Plain ASCII line with some words. 日本語のテキストと漢字。 '), 'utf-8'],
  ['cp1252', sample('Hello, “wörld” – 5 € ™ café naïve. '), 'windows-1252'],
  ['shift_jis', sample('日本語のテキストと漢字、ｶﾀｶﾅ and ASCII. '), 'shift_jis'],
  ['euc-jp', sample('日本語のテキストと漢字、ｶﾀｶﾅ and ASCII. '), 'euc-jp'],
  ['gbk', sample('中文文本，汉字。简体 ASCII text. '), 'gbk'],
  ['gb18030', sample('中文文本，汉字。简体 ASCII text 😀 ᠀. '), 'gb18030'],
  ['big5', sample('繁體中文，測試文字 ASCII text. '), 'big5'],
  ['euc-kr', sample('한국어 텍스트입니다 ASCII text. '), 'euc-kr'],
];

for (const [name, text, label] of cases) {
  const codec = resolveEncoding(name);
  let start = performance.now();
  const encoded = codec.encode(text);
  const firstEncode = performance.now() - start;
  const bytes = encoded.subarray(0, MIB);
  start = performance.now();
  codec.decode(bytes, { truncated: true });
  const firstDecode = performance.now() - start;
  const ours = median(() => codec.decode(bytes, { truncated: true }));
  // windows-1252 is native in TextDecoder; a JS table decoder is compared with iconv-lite's, also JS.
  const baseline =
    name === 'cp1252'
      ? median(() => iconv.decode(bytes, 'cp1252'))
      : median(() => new TextDecoder(label, { fatal: false }).decode(bytes, { stream: true }));
  const baselineName = name === 'cp1252' ? 'iconv-lite' : 'TextDecoder';
  const target = name === 'utf-8' ? 1.2 : 2.5;
  const oursEncode = median(() => codec.encode(text));
  const iconvEncode = median(() => iconv.encode(text, label === 'windows-1252' ? 'cp1252' : label));
  console.log(
    `${name.padEnd(9)} decode ${ours.toFixed(2)} ms vs ${baselineName} ${baseline.toFixed(2)} ms: ` +
      `ratio ${(ours / baseline).toFixed(2)}x (target <= ${target}x); ` +
      `encode ${oursEncode.toFixed(2)} ms vs iconv-lite ${iconvEncode.toFixed(2)} ms: ratio ${(oursEncode / iconvEncode).toFixed(2)}x; ` +
      `first use: encode ${firstEncode.toFixed(1)} ms, decode ${firstDecode.toFixed(1)} ms`,
  );
}
