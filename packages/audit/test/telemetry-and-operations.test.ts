import { trace, type Span, type SpanOptions, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordOverlayOperation, telemetryReady, verify } from '../src/index.js';
import { auditedRuntime, openLog, recordsOf } from './support.js';

interface Recorded {
  name: string;
  attributes: Record<string, unknown>;
  status?: number;
  ended: boolean;
}

// The smallest tracer provider: it keeps every span in memory, as an SDK's in-memory exporter would.
const spans: Recorded[] = [];
const provider: TracerProvider = {
  getTracer: (): Tracer =>
    ({
      startSpan(name: string, options: SpanOptions = {}): Span {
        const recorded: Recorded = { name, attributes: { ...options.attributes }, ended: false };
        spans.push(recorded);
        const span = {
          setAttribute(key: string, value: unknown) {
            recorded.attributes[key] = value;
            return span;
          },
          setStatus(status: { code: number }) {
            recorded.status = status.code;
            return span;
          },
          end() {
            recorded.ended = true;
          },
        };
        return span as unknown as Span;
      },
    }) as unknown as Tracer,
};

beforeAll(async () => {
  await telemetryReady;
  trace.setGlobalTracerProvider(provider);
});
afterAll(() => {
  trace.disable();
});

describe('OpenTelemetry spans', () => {
  it('makes one execute_tool span per call with the decision and error code, and no content', async () => {
    spans.length = 0;
    const log = await openLog();
    const runtime = await auditedRuntime(log, { files: { 'notes.txt': 'Sk-SPAN-CONTENT' } });
    const process = runtime.spawn();
    await process.call('read_text_file', { path: 'notes.txt' });
    await process.call('read_text_file', { path: 'missing.txt' }, { caller: { session: 'mcp-session-1', client: { name: 'client', version: '1' } } });
    await runtime.close();
    const calls = spans.filter((span) => span.name.startsWith('execute_tool'));
    expect(calls).toEqual([
      {
        name: 'execute_tool read_text_file',
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read_text_file', 'libos.decision': 'allowed' },
        ended: true,
      },
      {
        name: 'execute_tool read_text_file',
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'read_text_file',
          'mcp.method.name': 'tools/call',
          'mcp.session.id': 'mcp-session-1',
          'libos.decision': 'allowed',
          'libos.error.code': 'not_found',
        },
        status: 2,
        ended: true,
      },
    ]);
    expect(JSON.stringify(spans)).not.toContain('Sk-SPAN-CONTENT');
    const records = recordsOf(log.path).filter((record) => record.tool === 'read_text_file');
    expect(records[1]).toMatchObject({ session: 'mcp-session-1', client: { name: 'client', version: '1' } });
  });
});

describe('overlay operations a person runs', () => {
  it('are recorded in their own session, chained with the calls', async () => {
    const log = await openLog();
    const runtime = await auditedRuntime(log);
    await runtime.spawn().call('write_text_file', { path: 'a.txt', content: 'agent text' });
    await runtime.close();
    await recordOverlayOperation(log, {
      operation: 'apply',
      arguments: { paths: ['a.txt'], mode: 'per_file' },
      paths: ['a.txt'],
      result: { ok: true },
      effects: [{ path: 'a.txt', before_sha256: null, after_sha256: 'f'.repeat(64), size_bytes: 10 }],
      durationMs: 1.5,
    });
    await recordOverlayOperation(log, {
      operation: 'rewind',
      arguments: { seq: 0 },
      result: { ok: false, code: 'content_conflict', effect: 'none' },
    });
    await log.close();
    const records = recordsOf(log.path);
    expect(records.map((record) => record.tool)).toEqual([
      'session_start',
      'write_text_file',
      'session_end',
      'session_start',
      'apply',
      'session_end',
      'session_start',
      'rewind',
      'session_end',
    ]);
    expect(records[4]).toMatchObject({
      process: null,
      decision: null,
      paths: ['a.txt'],
      result: { ok: true },
      duration_ms: 1.5,
      session: records[3]!.session,
    });
    expect(records[7]!.result).toEqual({ ok: false, code: 'content_conflict', effect: 'none' });
    expect(verify(log.path)).toMatchObject({ ok: true, records: 9 });
  });
});
