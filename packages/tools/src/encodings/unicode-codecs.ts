import { Buffer } from 'node:buffer';
import { assertWellFormed, decodeFailed } from './codec-errors.js';
import type { TextCodec } from './text-codec.js';

type UnicodeLabel = 'utf-8' | 'utf-16le' | 'utf-16be';

/**
 * Strict decode through TextDecoder, which is exact against Python for the UTF family. A fresh decoder
 * per call: one used with `stream` keeps pending bytes and would fail its next call. `stream` (never
 * flushed) drops exactly a final proper prefix of a valid sequence.
 */
function decodeUnicode(
  encoding: string,
  label: UnicodeLabel,
  bytes: Uint8Array,
  truncated: boolean,
  { stripOneBom = false, baseOffset = 0 } = {},
): string {
  const decoder = new TextDecoder(label, { fatal: true, ignoreBOM: !stripOneBom });
  try {
    return decoder.decode(bytes, { stream: truncated });
  } catch {
    // TextDecoder gives no position, so the failure path finds it once.
    const offset = label === 'utf-8' ? utf8ErrorOffset(bytes) : utf16ErrorOffset(bytes, label);
    throw decodeFailed(encoding, baseOffset + offset);
  }
}

/** Where the first invalid UTF-8 sequence starts (Python's and WHATWG's ranges). */
function utf8ErrorOffset(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index++;
      continue;
    }
    let length: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) lower = 0xa0;
      if (lead === 0xed) upper = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) lower = 0x90;
      if (lead === 0xf4) upper = 0x8f;
    } else return index;
    for (let k = 1; k < length; k++) {
      const next = bytes[index + k];
      if (next === undefined || next < lower || next > upper) return index;
      lower = 0x80;
      upper = 0xbf;
    }
    index += length;
  }
  return bytes.length;
}

/** Where the first lone surrogate or the odd final byte of UTF-16 input starts. */
function utf16ErrorOffset(bytes: Uint8Array, label: 'utf-16le' | 'utf-16be'): number {
  const unitAt = (offset: number) => (label === 'utf-16le' ? bytes[offset]! | (bytes[offset + 1]! << 8) : (bytes[offset]! << 8) | bytes[offset + 1]!);
  let offset = 0;
  for (; offset + 1 < bytes.length; offset += 2) {
    const unit = unitAt(offset);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit >= 0xdc00 || offset + 3 >= bytes.length) return offset;
    const next = unitAt(offset + 2);
    if (next < 0xdc00 || next > 0xdfff) return offset;
    offset += 2;
  }
  return offset;
}

function encodeUtf16(text: string, bigEndian: boolean): Uint8Array {
  const bytes = Buffer.from(text, 'utf16le');
  return bigEndian ? bytes.swap16() : bytes;
}

function withPrefix(prefix: readonly number[], body: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(prefix.length + body.length);
  bytes.set(prefix);
  bytes.set(body, prefix.length);
  return bytes;
}

/** utf-8: a leading BOM stays U+FEFF. */
export const utf8Codec: TextCodec = {
  name: 'utf-8',
  decode: (bytes, { truncated }) => decodeUnicode('utf-8', 'utf-8', bytes, truncated),
  encode(text) {
    assertWellFormed('utf-8', text);
    return Buffer.from(text, 'utf8');
  },
};

/** utf-8-sig: one leading BOM removed on decode (a cut BOM in a truncated read gives ''), always written on encode. */
export const utf8SigCodec: TextCodec = {
  name: 'utf-8-sig',
  decode: (bytes, { truncated }) => decodeUnicode('utf-8-sig', 'utf-8', bytes, truncated, { stripOneBom: true }),
  encode(text) {
    assertWellFormed('utf-8-sig', text);
    return withPrefix([0xef, 0xbb, 0xbf], Buffer.from(text, 'utf8'));
  },
};

/** utf-16: a leading `FF FE` or `FE FF` picks the byte order and is removed; none means little-endian. */
export const utf16Codec: TextCodec = {
  name: 'utf-16',
  decode(bytes, { truncated }) {
    if (bytes.length < 2) {
      if (truncated || bytes.length === 0) return '';
      throw decodeFailed('utf-16', 0);
    }
    if (bytes[0] === 0xfe && bytes[1] === 0xff) {
      return decodeUnicode('utf-16', 'utf-16be', bytes.subarray(2), truncated, { baseOffset: 2 });
    }
    if (bytes[0] === 0xff && bytes[1] === 0xfe) {
      return decodeUnicode('utf-16', 'utf-16le', bytes.subarray(2), truncated, { baseOffset: 2 });
    }
    return decodeUnicode('utf-16', 'utf-16le', bytes, truncated);
  },
  encode(text) {
    assertWellFormed('utf-16', text);
    return withPrefix([0xff, 0xfe], encodeUtf16(text, false));
  },
};

/** utf-16-le: no BOM handling; a leading `FF FE` is U+FEFF. */
export const utf16LeCodec: TextCodec = {
  name: 'utf-16-le',
  decode: (bytes, { truncated }) => decodeUnicode('utf-16-le', 'utf-16le', bytes, truncated),
  encode(text) {
    assertWellFormed('utf-16-le', text);
    return encodeUtf16(text, false);
  },
};

/** utf-16-be: no BOM handling; a leading `FE FF` is U+FEFF. */
export const utf16BeCodec: TextCodec = {
  name: 'utf-16-be',
  decode: (bytes, { truncated }) => decodeUnicode('utf-16-be', 'utf-16be', bytes, truncated),
  encode(text) {
    assertWellFormed('utf-16-be', text);
    return encodeUtf16(text, true);
  },
};
