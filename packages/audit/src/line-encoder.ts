import type { AuditEntry } from './audit-record.js';
import { recordLine } from './record-line.js';
import { sha256Hex } from './sha256.js';

// A few hundred records' worth, kept between batches; a batch far bigger does not keep its buffer.
const KEPT_BYTES = 64 * 1024;
const MAX_KEPT_BYTES = 1024 * 1024;

/** A batch's lines as bytes, and the chain's head after them. */
export interface EncodedLines {
  readonly bytes: Buffer;
  readonly length: number;
  readonly seq: number;
  readonly last: string;
}

/**
 * Chains records after `seq` and `last` and encodes their lines, each with its newline, into one
 * buffer kept from batch to batch. Each line is encoded once and hashed from the bytes that are
 * written: as strings, a line was encoded three times (its hash, its length, its write).
 */
export class LineEncoder {
  #bytes = Buffer.allocUnsafe(KEPT_BYTES);

  encode(entries: readonly AuditEntry[], seq: number, last: string): EncodedLines {
    let bytes = this.#bytes;
    let length = 0;
    for (let index = 0; index < entries.length; index += 1) {
      const line = recordLine(entries[index]!, seq + 1, last);
      // UTF-8 takes at most three bytes per UTF-16 unit, and the newline one.
      if (length + line.length * 3 + 1 > bytes.length) {
        const grown = Buffer.allocUnsafe(Math.max(bytes.length * 2, length + line.length * 3 + 1));
        bytes.copy(grown, 0, 0, length);
        bytes = grown;
      }
      const start = length;
      length += bytes.write(line, start);
      seq += 1;
      last = sha256Hex(bytes.subarray(start, length));
      bytes[length] = 0x0a;
      length += 1;
    }
    // The caller writes the bytes before the next batch is encoded into them.
    this.#bytes = bytes.length > MAX_KEPT_BYTES ? Buffer.allocUnsafe(KEPT_BYTES) : bytes;
    return { bytes, length, seq, last };
  }
}
