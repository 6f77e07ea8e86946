/** The SDK's node:http adapter (the 2025-era transport, `toWebRequest`, `toNodeHandler`). */
export type NodeAdapter = typeof import('@modelcontextprotocol/node');

let nodeAdapter: Promise<NodeAdapter> | undefined;

/**
 * The SDK's node:http adapter, loaded with the first HTTP request: its web-server layer (Hono's)
 * reaches for the global `Response` and `node:http2` as it loads, which cost every `libos mcp`
 * start (stdio, where no HTTP request ever comes) tens of milliseconds for nothing. Only a dynamic
 * import keeps it out: a bundler that inlines this package follows every static import of a module
 * it loads, used or not.
 */
export function loadNodeAdapter(): Promise<NodeAdapter> {
  nodeAdapter ??= import('@modelcontextprotocol/node');
  return nodeAdapter;
}
