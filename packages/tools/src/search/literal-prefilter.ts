import { Buffer } from 'node:buffer';

/** Whether a file's bytes can hold a match at all; false means it holds none, so it need not be decoded. */
export type BytePrefilter = (bytes: Uint8Array) => boolean;

/**
 * For a case-sensitive literal searched in UTF-8 (`utf-8`, `utf-8-sig`), a byte search for its
 * encoding: every decoded text is the decoding of a prefix of the bytes read (a BOM and a character
 * cut at the end aside), so a text holding the literal comes from bytes holding its encoding. Most
 * files of a search hold no match; they are passed over without decoding a byte. Undefined where no
 * such test is exact: another encoding, a regex, case folding, or a query with a lone surrogate
 * (which decoded text never holds but whose replacement encoding real bytes could).
 */
export function literalPrefilter(
  query: string,
  options: { readonly regex: boolean; readonly caseSensitive: boolean; readonly encoding: string },
): BytePrefilter | undefined {
  if (options.regex || !options.caseSensitive || !query.isWellFormed()) return undefined;
  if (options.encoding !== 'utf-8' && options.encoding !== 'utf-8-sig') return undefined;
  const encoded = Buffer.from(query, 'utf8');
  return (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(encoded) !== -1;
}
