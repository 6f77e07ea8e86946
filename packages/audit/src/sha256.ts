import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256 of a string's UTF-8 or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The `prev` of the first record. */
export const GENESIS = '0'.repeat(64);
