import { Buffer } from 'node:buffer';

// TextDecoder reads the units as little-endian bytes, so a big-endian host takes the slow path.
const littleEndianHost = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Turns UTF-16 code units (already known well-formed) into a string without per-character concatenation. */
export function unitsToString(units: Uint16Array): string {
  if (littleEndianHost) {
    // ignoreBOM: a leading U+FEFF is content, not a byte order mark.
    return new TextDecoder('utf-16le', { ignoreBOM: true }).decode(units);
  }
  let text = '';
  for (let start = 0; start < units.length; start += 8192) {
    text += String.fromCharCode(...units.subarray(start, start + 8192));
  }
  return text;
}

/** Maps each byte to the code point of the same value (latin-1, or ASCII already checked), natively. */
export function latin1ToString(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
