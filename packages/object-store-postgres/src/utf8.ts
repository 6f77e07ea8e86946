/** The UTF-8 bytes of a well-formed string, as stored in a bytea column (text columns cannot hold NUL). */
export function utf8Bytes(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/** The string a bytea column's UTF-8 bytes spell. */
export function utf8Text(bytes: Buffer): string {
  return bytes.toString('utf8');
}
