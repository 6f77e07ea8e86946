import { LibosError, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';

/** Bytes of one file at absolute offsets, and its size as the read that gave them saw it. */
export interface ByteRange {
  readonly bytes: Uint8Array;
  readonly offset: number;
  readonly sizeBytes: number;
}

/** Positioned reads of one file, whatever the provider offers. */
export interface ByteSource {
  /** At most `maxBytes` bytes from `offset`. */
  read(offset: number, maxBytes: number): Promise<ByteRange>;
  /** At most `maxBytes` bytes ending at the end of the file. */
  readEnd(maxBytes: number): Promise<ByteRange>;
  /** Whether `readEnd` reads only the end (false: it reads the file from its start). */
  readonly seeks: boolean;
}

/**
 * Reads through `readFileRange` when the provider has it. Without it, one prefix of at most
 * `prefixBytes` bytes is read once and served from memory, so every answer stays exact and bounded;
 * a range beyond that prefix, or the end of a file longer than it, is `too_large`.
 */
export function byteSource(provider: FileSystemProviderV1, path: WorkspacePath, prefixBytes: number, signal: AbortSignal | undefined): ByteSource {
  const range = provider.readFileRange;
  if (range !== undefined) {
    return {
      seeks: true,
      read: (offset, maxBytes) => range.call(provider, path, { offset, maxBytes, signal }),
      readEnd: (maxBytes) => range.call(provider, path, { offset: 0, fromEnd: true, maxBytes, signal }),
    };
  }
  let prefix: Promise<{ bytes: Uint8Array; truncated: boolean }> | undefined;
  const whole = async () => {
    prefix ??= provider.readFile(path, { maxBytes: prefixBytes, signal }).then((read) => ({
      bytes: read.bytes.subarray(0, prefixBytes),
      truncated: read.truncated || read.bytes.length > prefixBytes,
    }));
    return prefix;
  };
  const beyond = () =>
    new LibosError('too_large', `"${path}" is larger than ${prefixBytes} bytes, more than this provider can read line by line.`, {
      details: { path, max_bytes: prefixBytes },
    });
  return {
    seeks: false,
    async read(offset, maxBytes) {
      const { bytes, truncated } = await whole();
      if (truncated && offset + maxBytes > bytes.length) throw beyond();
      const start = Math.min(offset, bytes.length);
      return { bytes: bytes.subarray(start, Math.min(bytes.length, start + maxBytes)), offset: start, sizeBytes: bytes.length };
    },
    async readEnd(maxBytes) {
      const { bytes, truncated } = await whole();
      if (truncated) throw beyond();
      const start = Math.max(0, bytes.length - maxBytes);
      return { bytes: bytes.subarray(start), offset: start, sizeBytes: bytes.length };
    },
  };
}
