import { LibosError } from '@libos/core';
import { resolveEncoding } from '../src/index.js';

/** Bytes from hex, spaces allowed: `hex('EF BB BF')`. */
export function hex(text: string): Uint8Array {
  const digits = text.replaceAll(' ', '');
  return Uint8Array.from({ length: digits.length / 2 }, (_, index) => parseInt(digits.slice(index * 2, index * 2 + 2), 16));
}

/** Lowercase hex without spaces, for comparing encoder output. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The decoded text, or `{ error: code, details }` when the codec throws a LibosError. */
export function decodeResult(encoding: string, bytes: string | Uint8Array, truncated = false): unknown {
  try {
    return resolveEncoding(encoding).decode(typeof bytes === 'string' ? hex(bytes) : bytes, { truncated });
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    return { error: error.code, details: error.details };
  }
}

/** The encoded hex, or `{ error: code, details }` when the codec throws a LibosError. */
export function encodeResult(encoding: string, text: string): unknown {
  try {
    return toHex(resolveEncoding(encoding).encode(text));
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    return { error: error.code, details: error.details };
  }
}

/** The expected `decode_failed` result at a byte offset. */
export function decodeFailure(encoding: string, byteOffset: number): unknown {
  return { error: 'decode_failed', details: { encoding, byte_offset: byteOffset } };
}

/** The expected `encode_failed` result for a character. */
export function encodeFailure(encoding: string, characterIndex: number, codePoint: string): unknown {
  return { error: 'encode_failed', details: { encoding, character_index: characterIndex, code_point: codePoint } };
}
