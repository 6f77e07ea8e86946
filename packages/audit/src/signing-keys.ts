import { generateKeyPairSync } from 'node:crypto';
import { closeSync, constants, openSync, writeSync } from 'node:fs';

/** Writes a new Ed25519 key pair: `file` (PKCS#8 PEM, created 0600, never over an existing file) and `file.pub` (SPKI PEM). */
export function writeSigningKeyPair(file: string): { readonly privateKey: string; readonly publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  writeNew(file, privateKey, 0o600);
  writeNew(`${file}.pub`, publicKey, 0o644);
  return { privateKey: file, publicKey: `${file}.pub` };
}

// Exclusive creation: a key is never replaced by accident, and never written through a link.
function writeNew(file: string, text: string, mode: number): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
