export { ENCODING_NAMES, resolveEncoding } from './resolve-encoding.js';
export type { TextCodec } from './text-codec.js';
