import { createHash, randomBytes } from 'node:crypto';

// 24 random bytes: 192 bits, past any guessing, written as 32 base64url characters.
const HANDLE_PATTERN = /^proc_[A-Za-z0-9_-]{32}$/;

/** A new process handle: `proc_` and 192 random bits. */
export function mintHandle(): string {
  return `proc_${randomBytes(24).toString('base64url')}`;
}

/** A new process id, as `spawn` makes them. */
export function mintProcessId(): string {
  return `pid_${randomBytes(8).toString('hex')}`;
}

/** Whether `value` has the shape of a handle (anything else is looked up nowhere). */
export function isHandleShaped(value: string): boolean {
  return HANDLE_PATTERN.test(value);
}

/**
 * The store key of `handle` for `principal`: one SHA-256 over both, so a store holds neither, and
 * the same handle named by another principal is simply a key that does not exist. The principal's
 * length comes first, so no two (principal, handle) pairs write the same bytes.
 */
export function processKey(principal: string, handle: string): string {
  return createHash('sha256')
    .update(`${Buffer.byteLength(principal, 'utf8')}:${principal}\u0000${handle}`)
    .digest('hex');
}
