export { runCli } from './run-cli.js';
export { TOOL_FORMATS, formatTools } from './commands/tool-formats.js';
export type { ToolFormat } from './commands/tool-formats.js';
export { ShellSession } from './shell/shell-session.js';
