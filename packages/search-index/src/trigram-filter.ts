/**
 * A file's trigrams (ASCII letters lowered) as a one-hash Bloom filter: a bit per trigram in a table of at least eight bits
 * per distinct trigram (a power of two, so a trigram's bit is the top bits of its hash). A trigram
 * the file holds always has its bit set, so a needle whose trigrams are not all set is not in the
 * file; a set bit may be another trigram's (about one in nine), so the answer is "maybe", never a
 * wrong "no". About one byte per distinct trigram, where a posting list costs four.
 */

const BITS_PER_TRIGRAM = 8;
const MIN_BITS = 64;

// One bit per possible trigram, reused by every build: counting distinct trigrams without a Set.
const seen = new Uint8Array(1 << 21);

// Each byte with ASCII `A`-`Z` lowered: the filter holds folded trigrams, so one filter serves a
// search that keeps case (its needles folded the same way: a file holding a needle holds it folded)
// and one that ignores it (`TreeSearchQuery.foldedNeedles`).
const FOLD = Uint8Array.from({ length: 256 }, (_, byte) => (byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte));

function trigramAt(bytes: Uint8Array, index: number): number {
  return (FOLD[bytes[index]!]! << 16) | (FOLD[bytes[index + 1]!]! << 8) | FOLD[bytes[index + 2]!]!;
}

/** The 32-bit hash whose top bits place a trigram in a filter. */
export function trigramHash(trigram: number): number {
  return Math.imul(trigram ^ (trigram >>> 13), 0x9e3779b1) >>> 0;
}

/** The filter of `bytes`: its length (a power of two, at least 8 bytes) gives its number of bits. */
export function buildFilter(bytes: Uint8Array): Uint8Array {
  const trigrams: number[] = [];
  for (let index = 0; index + 2 < bytes.length; index++) {
    const trigram = trigramAt(bytes, index);
    const mask = 1 << (trigram & 7);
    if ((seen[trigram >>> 3]! & mask) !== 0) continue;
    seen[trigram >>> 3]! |= mask;
    trigrams.push(trigram);
  }
  let bits = MIN_BITS;
  while (bits < trigrams.length * BITS_PER_TRIGRAM) bits *= 2;
  const filter = new Uint8Array(bits / 8);
  const shift = 32 - Math.log2(bits);
  for (const trigram of trigrams) {
    seen[trigram >>> 3] = 0;
    const bit = trigramHash(trigram) >>> shift;
    filter[bit >>> 3]! |= 1 << (bit & 7);
  }
  return filter;
}

/** The hashes of the folded trigrams of `needles` (a needle shorter than three bytes adds none). */
export function needleHashes(needles: readonly Uint8Array[]): Uint32Array {
  const hashes: number[] = [];
  for (const needle of needles) {
    for (let index = 0; index + 2 < needle.length; index++) hashes.push(trigramHash(trigramAt(needle, index)));
  }
  return Uint32Array.from(new Set(hashes));
}

/** Whether a file with this filter may hold every trigram whose hash is in `hashes`. */
export function mayHold(filter: Uint8Array, hashes: Uint32Array): boolean {
  // The filter's bits are a power of two: 32 less its exponent is the shift.
  const shift = Math.clz32(filter.length * 8) + 1;
  for (let index = 0; index < hashes.length; index++) {
    const bit = hashes[index]! >>> shift;
    if ((filter[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}
