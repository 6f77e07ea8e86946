import { LibosError } from '@libos/core';
import type { TextCodec } from './text-codec.js';

// Interim: UTF-8 only. The full codec set replaces this table.
const utf8: TextCodec = {
  name: 'utf-8',
  decode(bytes, { truncated }) {
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, { stream: truncated });
    } catch {
      throw new LibosError('decode_failed', 'The file is not valid utf-8.', { details: { encoding: 'utf-8' } });
    }
  },
  encode(text) {
    if (!text.isWellFormed()) {
      throw new LibosError('encode_failed', 'The content holds a lone surrogate, which utf-8 cannot encode.', {
        details: { encoding: 'utf-8' },
      });
    }
    return new TextEncoder().encode(text);
  },
};

/** The canonical names of every supported encoding. */
export const ENCODING_NAMES: readonly string[] = ['utf-8'];

/** Finds the codec for an encoding name or alias; throws `unsupported_encoding`. */
export function resolveEncoding(label: string): TextCodec {
  const key = label.toLowerCase().replaceAll('_', '-');
  if (key === 'utf-8' || key === 'utf8') return utf8;
  throw new LibosError('unsupported_encoding', `The encoding "${label}" is not supported.`, {
    details: { encoding: label, supported: ENCODING_NAMES },
  });
}
