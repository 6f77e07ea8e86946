import type { AuditCallerContext } from '@libos/core';
import type { ToolSummary } from '@libos/tools';
import {
  CLIENT_INFO_META_KEY,
  type CallToolResult,
  type InputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import type { ApprovalRounds } from '../approvals/approval-rounds.js';
import { isPlainObject } from '../json-rpc.js';
import type { McpRuntime } from '../mcp-runtime.js';
import { runToolCall } from '../run-tool-call.js';
import { toMcpTool } from '../to-mcp-tool.js';
import { VERSION } from '../version.js';
import type { ModernCall } from './modern-call.js';
import { PreemptingServer } from './preempting-server.js';

/** What one 2026-07-28 exchange carries into the server the SDK builds for it. */
export interface ModernExchange {
  /** The request body as the client's JSON held it (a `__proto__` key included). */
  readonly body: Readonly<Record<string, unknown>>;
  /** Resolves the principal and process of a `tools/call` (see `ModernCall`). */
  readonly resolveCall: (caller: AuditCallerContext) => Promise<ModernCall>;
  /** Aborted when the client goes away before its answer. */
  readonly signal: AbortSignal;
}

export interface ModernServerOptions {
  readonly name?: string | undefined;
  readonly version?: string | undefined;
  readonly log: (line: string) => void;
  /** The largest reply written, in bytes of JSON; a larger tool result is replaced by `result_too_large`. */
  readonly maxReplyBytes: number;
  /** How long a client may cache `tools/list` (the tools never change while the server runs). */
  readonly toolsTtlMs?: number;
  /** The tools published, when they differ from the runtime's (a process table's, with `process`). */
  readonly tools?: readonly ToolSummary[] | undefined;
  /** Approvals by `input_required` rounds (sealed states, single use). */
  readonly approvals: ApprovalRounds;
}

/** The same sentence a 2025-era session answers (docs/mcp.md, "JSON-RPC is exact"). */
const NO_NAME = 'Invalid params: tools/call needs "name", the name of a tool as a string.';

/** The tools never change while a server runs; a client may keep the list this long (an hour). */
const DEFAULT_TOOLS_TTL_MS = 3_600_000;

/**
 * The validator of a client's answers to the server's own requests (none under 2026-07-28): the
 * SDK's CfWorker one, so the SDK's Ajv default is never constructed (the CLI bundles no Ajv).
 */
const VALIDATOR = new CfWorkerJsonSchemaValidator();

/** Each tool list's MCP form, made once: a server is built per HTTP request, the list does not change. */
const PUBLISHED = new WeakMap<readonly ToolSummary[], readonly Tool[]>();

function publishedOf(tools: readonly ToolSummary[]): readonly Tool[] {
  let published = PUBLISHED.get(tools);
  if (published === undefined) {
    published = tools.map(toMcpTool);
    PUBLISHED.set(tools, published);
  }
  return published;
}

/**
 * The SDK v2 server of 2026-07-28 requests: one per HTTP request, or one pinned for a stdio
 * connection. The SDK answers everything of the protocol (`server/discover`, the envelope and
 * header checks, cache hints); `tools/call` is this server's own end to end: the arguments as the
 * client's JSON held them, the exchange's own signal, and one result, measured before it is written.
 * `exchangeOf` names the exchange a request belongs to (the request's own, or the one its id names).
 */
export function createModernServer(runtime: McpRuntime, exchangeOf: (ctx: ServerContext) => ModernExchange, options: ModernServerOptions): Server {
  const published = publishedOf(options.tools ?? runtime.tools);
  const server = new PreemptingServer(
    { name: options.name ?? 'libos', title: 'libOS workspace', version: options.version ?? VERSION },
    {
      capabilities: { tools: {} },
      // The list is the same for every principal: any cache may keep it.
      cacheHints: { 'tools/list': { ttlMs: options.toolsTtlMs ?? DEFAULT_TOOLS_TTL_MS, cacheScope: 'public' } },
      requestState: { verify: options.approvals.verify },
      jsonSchemaValidator: VALIDATOR,
    },
    (params, ctx) => preemptMalformedCall(params, ctx),
  );
  /**
   * A call the SDK's schema would refuse still goes to the runtime, so that it has its record: the
   * pipeline refuses a call without a string name (then -32602, the 2025-era sentence) and
   * arguments that are not an object (the tool failure invalid_arguments) before anything runs.
   */
  function preemptMalformedCall(params: Readonly<Record<string, unknown>>, ctx: ServerContext): Promise<CallToolResult> | undefined {
    const named = typeof params.name === 'string';
    if (named && (!Object.hasOwn(params, 'arguments') || isPlainObject(params.arguments))) return undefined;
    return (async () => {
      const exchange = exchangeOf(ctx);
      const call = await exchange.resolveCall(callerOf(ctx));
      try {
        const result = await runToolCall(call.process, params.name as string, params.arguments, callOptions(exchange, ctx));
        if (!named) throw new ProtocolError(ProtocolErrorCode.InvalidParams, NO_NAME);
        return result;
      } finally {
        await call.release();
      }
    })();
  }
  const callOptions = (exchange: ModernExchange, ctx: ServerContext) => ({
    signal: exchange.signal,
    caller: callerOf(ctx),
    maxReplyBytes: options.maxReplyBytes,
    tools: options.tools ?? runtime.tools,
    log: options.log,
  });

  server.setRequestHandler('tools/list', () => ({ tools: [...published] }));
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const exchange = exchangeOf(ctx);
    const params = isPlainObject(exchange.body.params) ? exchange.body.params : {};
    const name = request.params.name;
    const call = await exchange.resolveCall(callerOf(ctx));
    try {
      const subject = { principal: call.principal, handle: call.handle, tool: name, arguments: params.arguments };
      return await options.approvals.round(ctx, subject, () => runToolCall(call.process, name, params.arguments, callOptions(exchange, ctx)));
    } finally {
      await call.release();
    }
  });
  return server;
}

/** Who the audit record says made a 2026-07-28 call: the client as its request's envelope names it. */
export function callerOf(ctx: ServerContext): AuditCallerContext {
  const envelope: Readonly<Record<string, unknown>> = ctx.mcpReq.envelope ?? {};
  const info = envelope[CLIENT_INFO_META_KEY];
  if (!isPlainObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') return {};
  return { client: { name: info.name, version: info.version } };
}
