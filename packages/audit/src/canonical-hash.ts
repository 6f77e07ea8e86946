import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './sha256.js';

// Well above the pipeline's own argument bound (8 MiB by default): a bigger value is refused by the
// pipeline anyway, and hashing it would cost a hostile caller nothing and the server a lot.
const MAX_ARGUMENTS_LENGTH = 32 * 1024 * 1024;

/** SHA-256 of a value's canonical JSON, or null when it is not JSON (or too big to be an argument). */
export function argumentsSha256(value: unknown): string | null {
  try {
    return sha256Hex(canonicalJson(value, { maxLength: MAX_ARGUMENTS_LENGTH }));
  } catch {
    // A cycle, a bigint, a value nested past the stack: the call fails invalid_arguments, the record says null.
    return null;
  }
}
