import { isUtf8 } from 'node:buffer';

/**
 * Names travel as "byte strings": read with the `latin1` encoding, one char per raw byte, so they
 * are cheap V8 strings yet lossless. Comparing two byte strings compares their bytes, and UTF-8
 * byte order is code-point order.
 */
export type ByteString = string;

/** A listed name: its raw bytes and the bytes of the name shown, which order it. */
export interface NameRecord {
  readonly raw: ByteString;
  readonly key: ByteString;
}

const highByte = /[\u0080-\u00ff]/;

/** Whether a byte string is plain ASCII, the same text in every encoding. */
export function isAscii(raw: ByteString): boolean {
  return !highByte.test(raw);
}

/** The name shown for raw bytes: valid UTF-8 as is, anything else with U+FFFD for the bad bytes. */
export function shownName(raw: ByteString): string {
  return isAscii(raw) ? raw : Buffer.from(raw, 'latin1').toString('utf8');
}

/** The ordering key: the raw bytes when they are UTF-8, else the UTF-8 bytes of the name shown. */
export function sortKey(raw: ByteString): ByteString {
  if (isAscii(raw)) return raw;
  const bytes = Buffer.from(raw, 'latin1');
  return isUtf8(bytes) ? raw : Buffer.from(bytes.toString('utf8'), 'utf8').toString('latin1');
}

/** Orders by the shown name in code-point order, then by raw bytes when two raw names show alike. */
export function compareNames(left: NameRecord, right: NameRecord): number {
  if (left.key !== right.key) return left.key < right.key ? -1 : 1;
  return left.raw < right.raw ? -1 : left.raw > right.raw ? 1 : 0;
}
