import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/** What a checkpoint's Ed25519 signature covers: the domain, the seq and the record's SHA-256, one per line. */
export function signedBytes(seq: number, recordSha256: string): Buffer {
  return Buffer.from(`libos-audit-checkpoint\n${seq}\n${recordSha256}`, 'utf8');
}

/** Signs a checkpoint; the signature is base64. */
export function signCheckpoint(key: KeyObject, seq: number, recordSha256: string): string {
  return sign(null, signedBytes(seq, recordSha256), key).toString('base64');
}

/** Whether `signature` (base64) is the key's signature of the checkpoint. */
export function checkCheckpointSignature(key: KeyObject, seq: number, recordSha256: string, signature: string): boolean {
  try {
    return verify(null, signedBytes(seq, recordSha256), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** An Ed25519 private key from a KeyObject or PEM text; throws TypeError for anything else. */
export function toSigningKey(key: KeyObject | string): KeyObject {
  const object = typeof key === 'string' ? createPrivateKey(key) : key;
  if (object.type !== 'private' || object.asymmetricKeyType !== 'ed25519') throw new TypeError('The signing key must be an Ed25519 private key.');
  return object;
}

/** An Ed25519 public key from a KeyObject or PEM text (a private key gives its public half). */
export function toPublicKey(key: KeyObject | string): KeyObject {
  const object = typeof key === 'string' ? createPublicKey(key) : key.type === 'private' ? createPublicKey(key) : key;
  if (object.asymmetricKeyType !== 'ed25519') throw new TypeError('The public key must be an Ed25519 key.');
  return object;
}
