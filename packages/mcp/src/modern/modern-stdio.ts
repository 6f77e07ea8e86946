import { type JSONRPCMessage, PROTOCOL_VERSION_META_KEY, type Transport } from '@modelcontextprotocol/server';
import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import { createApprovalRounds } from '../approvals/approval-rounds.js';
import { isPlainObject } from '../json-rpc.js';
import type { McpProcess, McpRuntime } from '../mcp-runtime.js';
import type { PreemptAnswer } from '../tool-call-hooks.js';
import type { ModernCall } from './modern-call.js';
import type { ModernEndpointOptions } from './modern-endpoint.js';
import { createModernServer, type ModernExchange } from './modern-server.js';

/**
 * `subscriptions/listen` over stdio, refused: the SDK holds a listen open until the client cancels
 * it or the connection closes, but the channel answers each request once and counts it in flight
 * until then, so listens would hold the connection's call slots (eight wedge it) and keep the end of
 * input from ever draining. This server has nothing to notify anyway: its tools never change and it
 * declares no list changes, resources or prompts.
 */
const NO_LISTEN: PreemptAnswer = {
  error: {
    code: -32601,
    message: 'Method not found: subscriptions/listen is not served over stdio (this server sends no notifications: its tool list never changes).',
  },
};

/** The principal of a stdio server: the one user who started it. */
const STDIO_PRINCIPAL = 'single-user';

/**
 * The 2026-07-28 requests of a stdio connection, answered by the SDK's own stdio entry
 * (`serveStdio`): one server pinned for the connection, as every SDK v2 stdio server runs, where
 * a per-request HTTP entry would build a web `Request`, a server and a `Response` for every call
 * (that cost 3.6 times an SDK stub's call). The SDK's entry reads from a wire this module feeds:
 * the channel keeps the line's bounds, the client's ids, cancellation and back-pressure, and hands
 * each 2026-07-28 request here under an id of the wire's own, which names the request's exchange
 * (its raw body and its signal) and its answer. Every call runs in the connection's process, whose
 * handle is the empty one (stdio has one agent), so approvals bind to it.
 */
export function createModernStdio(runtime: McpRuntime, process: McpProcess, options: ModernEndpointOptions) {
  const call: ModernCall = { principal: STDIO_PRINCIPAL, handle: '', process, release() {} };
  const exchanges = new Map<number, ModernExchange>();
  const answers = new Map<number, { resolve(answer: PreemptAnswer): void; reject(error: Error): void }>();
  let nextId = 0;
  let closed = false;

  const wire: Transport = {
    async start() {},
    async send(message: JSONRPCMessage) {
      // Only answers reach the client: a stdio request has no stream for notifications of its own.
      if (!('id' in message) || typeof message.id !== 'number' || 'method' in message) return;
      const pending = answers.get(message.id);
      if (pending === undefined) return;
      answers.delete(message.id);
      exchanges.delete(message.id);
      if ('error' in message) pending.resolve({ error: message.error });
      else pending.resolve({ result: message.result });
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = new Error('the 2026-07-28 server of this connection has closed');
      for (const pending of answers.values()) pending.reject(error);
      answers.clear();
      exchanges.clear();
      wire.onclose?.();
    },
  };
  const serverOptions = { ...options, approvals: createApprovalRounds(options.approvals) };
  const served = serveSdkStdio(
    () =>
      createModernServer(
        runtime,
        (ctx) => {
          const exchange = typeof ctx.mcpReq.id === 'number' ? exchanges.get(ctx.mcpReq.id) : undefined;
          if (exchange === undefined) throw new Error('A 2026-07-28 request reached the server without its exchange.');
          return exchange;
        },
        serverOptions,
      ),
    { transport: wire, legacy: 'reject', onerror: (error) => options.log(error.message) },
  );

  return {
    /**
     * Answers a 2026-07-28 request: one whose `_meta` claims a protocol version (the SDK's own
     * routing rule; a malformed envelope behind the claim is the SDK's -32602). Undefined for a
     * 2025-era request, which the session's SDK server answers.
     */
    answer(method: string, params: unknown, signal: AbortSignal): Promise<PreemptAnswer> | undefined {
      const meta = isPlainObject(params) && isPlainObject(params._meta) ? params._meta : undefined;
      if (meta === undefined || !Object.hasOwn(meta, PROTOCOL_VERSION_META_KEY)) return undefined;
      if (closed) return Promise.reject(new Error('the 2026-07-28 server of this connection has closed'));
      if (method === 'subscriptions/listen') return Promise.resolve(NO_LISTEN);
      nextId += 1;
      const id = nextId;
      const body = { jsonrpc: '2.0' as const, id, method, params: params as Record<string, unknown> };
      exchanges.set(id, { body, signal, resolveCall: async () => call });
      return new Promise<PreemptAnswer>((resolve, reject) => {
        answers.set(id, { resolve, reject });
        wire.onmessage?.(body);
      });
    },
    close: () => served.close(),
  };
}
