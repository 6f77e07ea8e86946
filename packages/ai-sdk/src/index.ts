export { createAiSdkTools } from './create-ai-sdk-tools.js';
export type { AiSdkTool, AiSdkToolsOptions } from './create-ai-sdk-tools.js';
