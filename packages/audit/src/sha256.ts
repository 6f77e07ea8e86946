import { createHash, hash } from 'node:crypto';

// The one-shot digest (Node 20.12+) costs a third of a Hash object, and a call hashes twice.
const oneShot: ((algorithm: string, data: string | Uint8Array, encoding: 'hex') => string) | undefined =
  typeof hash === 'function' ? hash : undefined;

/** Lowercase hex SHA-256 of a string's UTF-8 or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return oneShot === undefined ? createHash('sha256').update(data).digest('hex') : oneShot('sha256', data, 'hex');
}

/** The `prev` of the first record. */
export const GENESIS = '0'.repeat(64);
