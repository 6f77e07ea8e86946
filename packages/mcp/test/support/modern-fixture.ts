import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { createElicitationApprover } from '../../src/elicitation-approver.js';
import { serveHttp } from '../../src/http/serve-http.js';
import { HEADERS } from './http-fixture.js';

/** A JSON-RPC answer as a test reads it (the shapes differ by method and outcome). */
export interface RpcAnswer {
  readonly id: unknown;
  readonly result: {
    readonly resultType?: string;
    readonly isError?: boolean;
    readonly structuredContent?: Record<string, unknown>;
    readonly content: { readonly text: string }[];
    readonly requestState: string;
    readonly inputRequests: Record<string, { readonly method: string; readonly params: { readonly message: string } }>;
  };
  readonly error: { readonly code: number; readonly message: string };
}

export const MODERN = '2026-07-28';

/** The `_meta` envelope a 2026-07-28 client puts on every request. */
export function envelope(capabilities: Record<string, unknown> = { elicitation: {} }) {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

/** A memfs workspace whose `gated/` needs an `ask` approval to write, served over HTTP with a token. */
export async function startGated(token = 'tok') {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.makeDirectory('gated');
  const runtime = await createRuntime({
    provider,
    approver: createElicitationApprover(),
    config: {
      grants: [
        { path: '.', tree: true, rights: ['read', 'write'] },
        { path: 'gated', tree: true, rights: ['write'], mode: 'ask' },
      ],
    },
  });
  const server = await serveHttp(runtime, { log: () => {}, token });
  const url = new URL(server.url);
  let next = 1;
  return {
    url,
    fixtures,
    /** One raw tools/call of the 2026-07-28 revision; the JSON-RPC answer as parsed JSON. */
    async call(name: string, args: unknown, extra: Record<string, unknown> = {}, bearer = token) {
      const id = `c${next++}`;
      const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...extra, _meta: envelope() } };
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...HEADERS, authorization: `Bearer ${bearer}`, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name },
        body: JSON.stringify(body),
      });
      return { id, status: response.status, json: (await response.json()) as RpcAnswer };
    },
    async close() {
      await server.close();
      await runtime.close();
    },
  };
}
