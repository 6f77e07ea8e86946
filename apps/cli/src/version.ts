import packageJson from '../package.json' with { type: 'json' };

/** The version of @libos/cli, reported to MCP clients and by `libos --version`. */
export const VERSION: string = packageJson.version;
