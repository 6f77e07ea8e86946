import type { CharacterRun, CjkTableData } from './cjk-table-data.js';

/** Marks a byte that is no character on its own (generated tables never map a byte to U+FFFF). */
export const NO_CHARACTER = 0xffff;
/** Number of gb18030 4-byte sequences from `81 30 81 30` that map into the BMP. */
export const GB18030_BMP_LINEAR_COUNT = 39420;
/** An encode table entry that Python refuses even though a fallback rule would apply. */
export const REFUSED = 1;

/** Decode tables of one CJK codec, filled from its generated runs on first use. */
export interface CjkDecodeTables {
  /** 256 code units; NO_CHARACTER for a lead or an invalid byte. */
  readonly single: Uint16Array;
  /** Whether bytes 00–7F decode to U+0000–U+007F, so all-ASCII input can skip the tables. */
  readonly asciiIdentity: boolean;
  /** `lead << 8 | trail` to code unit; 0 where Python rejects the pair. */
  readonly pairs: Uint16Array;
  /** 1 for each byte that starts at least one valid pair. */
  readonly leads: Uint8Array;
  /** euc-jp `8F b2 b3`: `b2 << 8 | b3` to code unit; 0 where invalid. */
  readonly triples: Uint16Array;
  /** euc-jp: 1 for each `b2` that some valid triple has. */
  readonly tripleSeconds: Uint8Array;
  /** gb18030: linear index of the BMP 4-byte area to code unit. */
  readonly fourByteBmp: Uint16Array;
  /** euc-kr make-up slots: byte to jamo index, -1 where invalid. */
  readonly choseong: Int8Array;
  readonly jungseong: Int8Array;
  readonly jongseong: Int8Array;
}

/** Encode tables of one CJK codec: `(length << 24) | bytes` per BMP code point (length 4: gb18030 linear index). */
export interface CjkEncodeTables {
  /** 0: no table entry; REFUSED: Python refuses it; else the packed encoding. */
  readonly units: Uint32Array;
  /** euc-kr make-up slots: jamo index to byte. */
  readonly choseongBytes: Uint8Array;
  readonly jungseongBytes: Uint8Array;
  readonly jongseongBytes: Uint8Array;
}

function fillRuns(target: Uint16Array, runs: readonly CharacterRun[] | undefined): void {
  for (const [start, characters] of runs ?? []) {
    for (let offset = 0; offset < characters.length; offset++) target[start + offset] = characters.charCodeAt(offset);
  }
}

function slotTable(entries: readonly (readonly [number, number])[] | undefined): Int8Array {
  const table = new Int8Array(256).fill(-1);
  for (const [byte, index] of entries ?? []) table[byte] = index;
  return table;
}

/** Builds the decode tables from generated data. */
export function buildDecodeTables(data: CjkTableData): CjkDecodeTables {
  const single = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) single[byte] = data.single.charCodeAt(byte);
  const pairs = new Uint16Array(65536);
  fillRuns(pairs, data.pairs);
  const leads = new Uint8Array(256);
  for (const [start] of data.pairs) leads[start >> 8] = 1;
  const triples = new Uint16Array(data.triples === undefined ? 0 : 65536);
  fillRuns(triples, data.triples);
  const tripleSeconds = new Uint8Array(256);
  for (const [start, characters] of data.triples ?? []) {
    for (let pointer = start; pointer < start + characters.length; pointer++) tripleSeconds[pointer >> 8] = 1;
  }
  const fourByteBmp = new Uint16Array(data.fourByteBmp === undefined ? 0 : GB18030_BMP_LINEAR_COUNT);
  const fourByteRuns = data.fourByteBmp ?? [];
  fourByteRuns.forEach(([linear, first], index) => {
    const end = fourByteRuns[index + 1]?.[0] ?? GB18030_BMP_LINEAR_COUNT;
    for (let offset = 0; linear + offset < end; offset++) fourByteBmp[linear + offset] = first + offset;
  });
  return {
    single,
    asciiIdentity: single.subarray(0, 0x80).every((unit, byte) => unit === byte),
    pairs,
    leads,
    triples,
    tripleSeconds,
    fourByteBmp,
    choseong: slotTable(data.makeUp?.choseong),
    jungseong: slotTable(data.makeUp?.jungseong),
    jongseong: slotTable(data.makeUp?.jongseong),
  };
}

function inverseSlots(entries: readonly (readonly [number, number])[] | undefined): Uint8Array {
  const bytes = new Uint8Array(32);
  for (const [byte, index] of [...(entries ?? [])].reverse()) bytes[index] = byte; // the first byte listed wins
  return bytes;
}

/**
 * Builds the encoder: the inverse of the decode tables, first entry wins (singles, pairs, triples, 4-byte
 * area, each in byte order), then Python's exceptions. The generator checks this model against Python's
 * encoder for every scalar and emits the exceptions it needs.
 */
export function buildEncodeTables(data: CjkTableData, decode: CjkDecodeTables): CjkEncodeTables {
  const units = new Uint32Array(65536);
  const claim = (unit: number, value: number) => {
    if (units[unit] === 0) units[unit] = value;
  };
  for (let byte = 0; byte < 256; byte++) {
    if (decode.single[byte] !== NO_CHARACTER) claim(decode.single[byte]!, (1 << 24) | byte);
  }
  for (let pointer = 0x8000; pointer < 0x10000; pointer++) {
    if (decode.pairs[pointer] !== 0) claim(decode.pairs[pointer]!, (2 << 24) | pointer);
  }
  for (let pointer = 0; pointer < decode.triples.length; pointer++) {
    if (decode.triples[pointer] !== 0) claim(decode.triples[pointer]!, (3 << 24) | 0x8f0000 | pointer);
  }
  for (let linear = 0; linear < decode.fourByteBmp.length; linear++) claim(decode.fourByteBmp[linear]!, (4 << 24) | linear);
  for (const [codePoint, bytes] of data.encodeExceptions) {
    units[codePoint] = bytes === null ? REFUSED : ((bytes.length / 2) << 24) | parseInt(bytes, 16);
  }
  return {
    units,
    choseongBytes: inverseSlots(data.makeUp?.choseong),
    jungseongBytes: inverseSlots(data.makeUp?.jungseong),
    jongseongBytes: inverseSlots(data.makeUp?.jongseong),
  };
}
