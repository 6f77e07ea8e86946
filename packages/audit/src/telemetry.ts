import type { CallResult } from '@libos/core';
import type { AuditRecordDecision } from './audit-record.js';

// The few parts of @opentelemetry/api this uses, so the package builds and runs without it.
interface OtelSpan {
  setAttribute(key: string, value: string): unknown;
  setStatus(status: { code: number }): unknown;
  end(): void;
}
interface OtelApi {
  trace: { getTracer(name: string): { startSpan(name: string, options: { kind: number; attributes: Record<string, string> }): OtelSpan } };
}

let api: OtelApi | null | undefined;
let tracer: ReturnType<OtelApi['trace']['getTracer']> | undefined;

/**
 * Loads `@opentelemetry/api` once if it is installed (an optional peer dependency); until it has
 * loaded, and without it, calls make no spans. Resolves when the attempt has settled.
 */
// A name in a variable: bundlers leave the import to run time instead of failing without the package.
const OPTIONAL_PEER = '@opentelemetry/api';
export const telemetryReady: Promise<void> = import(OPTIONAL_PEER).then(
  (module: { trace?: unknown; default?: { trace?: unknown } }) => {
    api = (module.trace === undefined ? module.default : module) as OtelApi;
  },
  () => {
    api = null;
  },
);

const SPAN_KIND_INTERNAL = 0;
const STATUS_ERROR = 2;

/** The span of one call, ended with its decision and outcome; never any content. */
export interface CallSpan {
  end(decision: AuditRecordDecision | null, result: CallResult): void;
}

/** Starts `execute_tool {tool}` when a tracer provider may be registered, else returns undefined. */
export function startSpan(tool: string | null, caller: { readonly session?: string } | undefined): CallSpan | undefined {
  if (api === undefined || api === null) return undefined;
  const name = tool ?? 'unknown';
  const attributes: Record<string, string> = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': name,
  };
  // A caller context comes only from an MCP server; over stdio there is no session id.
  if (caller !== undefined) attributes['mcp.method.name'] = 'tools/call';
  if (caller?.session !== undefined) attributes['mcp.session.id'] = caller.session;
  // The API's tracer is a proxy that finds a provider registered later too, so one is enough.
  tracer ??= api.trace.getTracer('@libos/audit');
  const span = tracer.startSpan(`execute_tool ${name}`, { kind: SPAN_KIND_INTERNAL, attributes });
  return {
    end(decision, result) {
      span.setAttribute('libos.decision', decision?.outcome ?? 'none');
      if (!result.ok) {
        span.setAttribute('libos.error.code', result.error.code);
        span.setStatus({ code: STATUS_ERROR });
      }
      span.end();
    },
  };
}
