import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/server';

/** How long the client has to list its roots. */
const ROOTS_TIMEOUT_MS = 30_000;

/** The directory the client's MCP roots name, or why there is none to serve. */
export type ClientRoot = { readonly directory: string } | { readonly refusal: string };

/**
 * Asks an initialized client for its roots (docs/mcp.md): exactly one `file://` root is
 * the workspace; none, several, a client without roots or one that does not answer is a refusal,
 * so a server started from `/` by a desktop client never serves `/` by accident.
 */
export async function clientRoot(server: Server): Promise<ClientRoot> {
  if (server.getClientCapabilities()?.roots === undefined) return { refusal: 'the client offers no MCP roots' };
  let roots: readonly { readonly uri: string }[];
  try {
    roots = (await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS })).roots;
  } catch (error) {
    // The SDK refuses a listing whose roots are not all file:// URIs, with a multi-line zod report.
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/gu, ' ').slice(0, 200);
    return { refusal: `the client did not list its MCP roots as file:// URIs (${reason})` };
  }
  const files = roots.filter((root) => root.uri.startsWith('file://'));
  if (files.length !== 1) {
    return {
      refusal: `the client offers ${files.length} file:// roots${roots.length === files.length ? '' : ` (of ${roots.length} roots)`}, not exactly one`,
    };
  }
  try {
    return { directory: fileURLToPath(files[0]!.uri) };
  } catch {
    return { refusal: "the client's file:// root is not a local path" };
  }
}
