/** The most bytes one chunk row holds; a file is its chunks in `seq` order, every one full but the last. */
export const CHUNK_BYTES = 1024 * 1024;
