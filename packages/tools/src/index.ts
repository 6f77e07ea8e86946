export { createRuntime } from './create-runtime.js';
export type { Runtime, RuntimeOptions } from './create-runtime.js';
export { loadConfig } from './load-config.js';
export type { LoadConfigOptions } from './load-config.js';
// Re-exported so a runtime that embeds only @libos/tools can recognise the errors its setup throws.
export { LibosError } from '@libos/core';
export type { RuntimeProcess, SpawnOptions } from './runtime-process.js';
export type { CallOptions } from './call-pipeline.js';
export type { InputIssue } from './input-issues.js';
export type { ToolSummary } from './tool-summary.js';
export type { ToolCallArguments, ToolCallInput, ToolCallResult, ToolList, ToolName, ToolOutput } from './tool-types.js';
export { BUILTIN_TOOLS } from './tools/index.js';
export { selectTools } from './select-tools.js';
export type { ToolCaller, ToolSelection } from './select-tools.js';
export { ENCODING_NAMES, resolveEncoding } from './encodings/index.js';
export type { TextCodec } from './encodings/index.js';
export { defineTool } from './tool-definition.js';
export { resultJson, resultJsonBytes } from './result-json.js';
export type { ProcessState, ToolAnnotations, ToolContext, ToolDefinition } from './tool-definition.js';
