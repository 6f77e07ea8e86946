export { runCli } from './run-cli.js';
export { createMcpServer, toMcpTool } from './mcp/create-mcp-server.js';
export { approvalMessage, createElicitationApprover } from './mcp/elicitation-approver.js';
export { failureJson, toCallToolResult } from './mcp/to-call-tool-result.js';
export { TOOL_FORMATS, formatTools } from './commands/tool-formats.js';
export type { ToolFormat } from './commands/tool-formats.js';
export { ShellSession } from './shell/shell-session.js';
export type { ToolProcess, ToolSummary, WorkspaceRuntime } from './workspace/runtime-shape.js';
