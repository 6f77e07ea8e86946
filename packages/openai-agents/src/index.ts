export { createOpenAIAgentsApplyPatchTool } from './create-openai-agents-apply-patch-tool.js';
export { createOpenAIAgentsTools } from './create-openai-agents-tools.js';
export type { OpenAIAgentsTool, OpenAIAgentsToolsOptions } from './create-openai-agents-tools.js';
export { stripOptionalNulls, toStrictSchema } from './strict-schema.js';
