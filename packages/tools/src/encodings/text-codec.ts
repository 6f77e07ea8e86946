/** A strict text codec: decoding never substitutes U+FFFD, encoding never writes `?`. */
export interface TextCodec {
  /** The canonical name reported in results, e.g. `utf-8`. */
  readonly name: string;
  /**
   * Decodes strictly. With `truncated`, an incomplete character at the very end (a proper prefix
   * of a valid sequence) is dropped; anything else invalid throws `decode_failed`.
   */
  decode(bytes: Uint8Array, options: { readonly truncated: boolean }): string;
  /** Encodes strictly; a character the encoding cannot hold throws `encode_failed`. */
  encode(text: string): Uint8Array;
}
