import { createHmac } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

// Well above the pipeline's own argument bound (8 MiB by default): a bigger value is refused by the
// pipeline anyway, and hashing it would cost a hostile caller nothing and the server a lot.
const MAX_ARGUMENTS_LENGTH = 32 * 1024 * 1024;

/**
 * HMAC-SHA256 (lowercase hex), keyed with the log's argument key (`FILE.key`), of a value's
 * canonical JSON; null when it is not JSON (or too big to be an argument). Keyed, because a plain
 * digest of short arguments (a PIN, "yes") is found by trying guesses; with the key it proves
 * which call it was to whoever holds the key, and says nothing to anyone else.
 */
export function argumentsDigest(key: Uint8Array, value: unknown): string | null {
  let text: string;
  try {
    text = canonicalJson(value, { maxLength: MAX_ARGUMENTS_LENGTH });
  } catch {
    // A cycle, a bigint, a value nested past the stack: the call fails invalid_arguments, the record says null.
    return null;
  }
  return createHmac('sha256', key).update(text).digest('hex');
}
