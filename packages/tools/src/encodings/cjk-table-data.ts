/** `[first pointer, consecutive characters]`: pointer + k decodes to the k-th character. */
export type CharacterRun = readonly [number, string];

/** The tables of one CJK codec as generated from Python by scripts/generate-encodings.py. */
export interface CjkTableData {
  /** 256 characters; U+FFFF where the byte alone is no character (a lead, or invalid). */
  readonly single: string;
  /** Valid 2-byte sequences, pointer `lead << 8 | trail`. */
  readonly pairs: readonly CharacterRun[];
  /** euc-jp: valid `8F b2 b3` sequences, pointer `b2 << 8 | b3`. */
  readonly triples?: readonly CharacterRun[];
  /** gb18030: `[linear index, first code point]` runs of the BMP 4-byte area (linear from `81 30 81 30`). */
  readonly fourByteBmp?: readonly (readonly [number, number])[];
  /** euc-kr: `[byte, jamo index]` of the choseong, jungseong and jongseong slots of a make-up sequence. */
  readonly makeUp?: {
    readonly choseong: readonly (readonly [number, number])[];
    readonly jungseong: readonly (readonly [number, number])[];
    readonly jongseong: readonly (readonly [number, number])[];
  };
  /** Code points whose Python encoding is not the first table entry: hex bytes, or null when Python refuses. */
  readonly encodeExceptions: readonly (readonly [number, string | null])[];
}
