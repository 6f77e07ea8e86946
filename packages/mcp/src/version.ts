import packageJson from '../package.json' with { type: 'json' };

/** The version of @libos/mcp, reported to MCP clients unless the embedder names its own. */
export const VERSION: string = packageJson.version;
