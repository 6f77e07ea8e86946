export { ENCODING_NAMES, resolveEncoding } from './encodings/index.js';
export type { TextCodec } from './encodings/index.js';
export type { ProcessState, ToolAnnotations, ToolContext, ToolDefinition } from './tool-definition.js';
