import { LibosError } from '@libos/core';
import { big5Codec, eucJpCodec, eucKrCodec, gb18030Codec, gbkCodec, shiftJisCodec } from './cjk-codecs.js';
import { asciiCodec, cp1252Codec, koi8RCodec, latin1Codec } from './single-byte-codecs.js';
import type { TextCodec } from './text-codec.js';
import { utf16BeCodec, utf16Codec, utf16LeCodec, utf8Codec, utf8SigCodec } from './unicode-codecs.js';

const CODECS: readonly TextCodec[] = [
  utf8Codec,
  utf8SigCodec,
  utf16Codec,
  utf16LeCodec,
  utf16BeCodec,
  asciiCodec,
  latin1Codec,
  cp1252Codec,
  shiftJisCodec,
  eucJpCodec,
  gbkCodec,
  gb18030Codec,
  big5Codec,
  eucKrCodec,
  koi8RCodec,
];

const ALIASES: Readonly<Record<string, TextCodec>> = { utf8: utf8Codec, latin1: latin1Codec, 'iso-8859-1': latin1Codec };

/** The canonical names of every supported encoding. */
export const ENCODING_NAMES: readonly string[] = CODECS.map((codec) => codec.name);

// A closed table: a caller's label never reaches TextDecoder or iconv-lite, whose aliases differ from Python's.
const BY_KEY = new Map<string, TextCodec>([...CODECS.map((codec) => [normalize(codec.name), codec] as const), ...Object.entries(ALIASES)]);

function normalize(label: string): string {
  return label.toLowerCase().replaceAll('_', '-');
}

/** Finds the codec for an encoding name or alias (case-insensitive, `_` read as `-`); throws `unsupported_encoding`. */
export function resolveEncoding(label: string): TextCodec {
  const codec = BY_KEY.get(normalize(label));
  if (codec !== undefined) return codec;
  throw new LibosError('unsupported_encoding', `The encoding "${label}" is not supported; use one of ${ENCODING_NAMES.join(', ')}.`, {
    details: { encoding: label, supported: ENCODING_NAMES },
  });
}
