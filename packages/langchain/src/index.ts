export { LibosLangChainTool, createLangChainTools } from './create-langchain-tools.js';
export type { LangChainToolsOptions } from './create-langchain-tools.js';
