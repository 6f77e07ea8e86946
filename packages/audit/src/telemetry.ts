import type { CallResult } from '@libos/core';
import type { AuditRecordDecision } from './audit-record.js';

// The few parts of @opentelemetry/api this uses, so the package builds and runs without it.
interface OtelSpan {
  setAttribute(key: string, value: string): unknown;
  setStatus(status: { code: number }): unknown;
  end(): void;
}
interface OtelTracer {
  startSpan(name: string, options: { kind: number; attributes: Record<string, string> }): OtelSpan;
}
interface OtelTracerProvider {
  getTracer(name: string): OtelTracer;
}

// Where every copy of @opentelemetry/api 1.x keeps the tracer provider a program registered
// (`trace.setGlobalTracerProvider`), so that all copies in a process share it.
const GLOBAL_API = Symbol.for('opentelemetry.js.api.1');

let cached: { provider: OtelTracerProvider; tracer: OtelTracer } | undefined;

/**
 * The tracer of the provider registered in this process, read from the API's global slot rather
 * than through an import of the package: this package's own import would not resolve where it is
 * bundled (the `libos` CLI) or where the optional peer is not linked, and a copy of another minor
 * version refuses to see a provider registered by an older one. Nothing is loaded, and without a
 * registered provider a call spends one property read.
 */
function currentTracer(): OtelTracer | undefined {
  const registered = (globalThis as Record<symbol, { trace?: Partial<OtelTracerProvider> } | undefined>)[GLOBAL_API];
  const provider = registered?.trace;
  if (typeof provider?.getTracer !== 'function') return undefined;
  if (cached?.provider !== provider) cached = { provider: provider as OtelTracerProvider, tracer: provider.getTracer('@libos/audit') };
  return cached.tracer;
}

/** Settled: spans need nothing loaded (kept for programs that awaited it before the first call). */
export const telemetryReady: Promise<void> = Promise.resolve();

const SPAN_KIND_INTERNAL = 0;
const STATUS_ERROR = 2;

/** The span of one call, ended with its decision and outcome; never any content. */
export interface CallSpan {
  end(decision: AuditRecordDecision | null, result: CallResult): void;
}

/** Starts `execute_tool {tool}` when a tracer provider is registered, else returns undefined. */
export function startSpan(tool: string | null, caller: { readonly session?: string } | undefined): CallSpan | undefined {
  const tracer = currentTracer();
  if (tracer === undefined) return undefined;
  const name = tool ?? 'unknown';
  const attributes: Record<string, string> = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': name,
  };
  // A caller context comes only from an MCP server; over stdio there is no session id.
  if (caller !== undefined) attributes['mcp.method.name'] = 'tools/call';
  if (caller?.session !== undefined) attributes['mcp.session.id'] = caller.session;
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
