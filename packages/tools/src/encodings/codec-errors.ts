import { LibosError } from '@libos/core';

/** The `decode_failed` error of a codec; `byteOffset` is where the first invalid sequence starts, when known. */
export function decodeFailed(encoding: string, byteOffset?: number): LibosError {
  if (byteOffset === undefined) {
    return new LibosError('decode_failed', `The bytes are not valid ${encoding}.`, { details: { encoding } });
  }
  return new LibosError('decode_failed', `The bytes are not valid ${encoding} at byte offset ${byteOffset}.`, {
    details: { encoding, byte_offset: byteOffset },
  });
}

/**
 * The `encode_failed` error for the character at code unit `unitIndex` of `text`. The reported index
 * counts code points, as Python's does, so it names the same character for any caller.
 */
export function encodeFailed(encoding: string, text: string, unitIndex: number): LibosError {
  const codePoint = text.codePointAt(unitIndex) ?? 0;
  let characterIndex = 0;
  for (let unit = 0; unit < unitIndex; unit++) {
    const code = text.charCodeAt(unit);
    // A well-formed pair counts once; a lone surrogate counts as one character, as in Python.
    if (code >= 0xd800 && code <= 0xdbff && unit + 1 < unitIndex) {
      const next = text.charCodeAt(unit + 1);
      if (next >= 0xdc00 && next <= 0xdfff) unit++;
    }
    characterIndex++;
  }
  const hex = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  const lone = codePoint >= 0xd800 && codePoint <= 0xdfff;
  const message = lone
    ? `The content holds a lone surrogate ${hex} at character index ${characterIndex}, which ${encoding} cannot encode.`
    : `The character ${hex} at character index ${characterIndex} cannot be encoded in ${encoding}.`;
  return new LibosError('encode_failed', message, {
    details: { encoding, character_index: characterIndex, code_point: hex },
  });
}

/** Throws `encode_failed` at the first lone surrogate, which no codec can encode (checked before any codec runs). */
export function assertWellFormed(encoding: string, text: string): void {
  if (text.isWellFormed()) return;
  for (let unit = 0; unit < text.length; unit++) {
    const code = text.charCodeAt(unit);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(unit + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      unit++;
      continue;
    }
    throw encodeFailed(encoding, text, unit);
  }
}
