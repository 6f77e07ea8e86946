import type { AuditCall, AuditCallStart, AuditDecision, CallResult, FileSystemProviderV1, WorkspacePath } from '@libos/core';
import type { AuditEffect, AuditEntry, AuditRecordDecision, AuditResult } from './audit-record.js';
import type { ArgumentsDigest } from './canonical-hash.js';
import { isoTime } from './iso-time.js';
import { startSpan, type CallSpan } from './telemetry.js';
import { watchProvider } from './watch-provider.js';

// A search names one root, a move two: a call naming more keeps its first ones (a record stays small).
const MAX_PATHS = 64;

const STRENGTH = { allowed: 0, asked: 1, denied: 2 } as const;

// Every successful call's outcome: one object for all (a record only reads it).
const OK: AuditResult = Object.freeze({ ok: true });

/** The record of one call: what it named, how it was decided, what it changed, and how it ended. */
export function openCallRecorder(
  session: string,
  start: AuditCallStart,
  append: (entry: AuditEntry) => Promise<void>,
  digestArguments: ArgumentsDigest,
): AuditCall {
  return new CallRecorder(session, start, append, digestArguments);
}

// A class rather than an object of closures: one is made for every call, and its methods are shared.
class CallRecorder implements AuditCall {
  readonly #time = isoTime();
  readonly #started = performance.now();
  readonly #session: string;
  readonly #process: string;
  readonly #caller: AuditCallStart['caller'];
  readonly #tool: string | null;
  readonly #hash: string | null;
  readonly #append: (entry: AuditEntry) => Promise<void>;
  readonly #span: CallSpan | undefined;
  readonly #paths: string[] = [];
  readonly #effects: AuditEffect[] = [];
  #decision: AuditRecordDecision | null = null;

  constructor(session: string, start: AuditCallStart, append: (entry: AuditEntry) => Promise<void>, digestArguments: ArgumentsDigest) {
    this.#session = session;
    this.#process = start.process;
    this.#caller = start.caller;
    this.#tool = typeof start.tool === 'string' ? start.tool : null;
    // Hashed now: a caller may change its arguments object once the call has begun.
    this.#hash = digestArguments(start.arguments);
    this.#append = append;
    this.#span = startSpan(this.#tool, start.caller);
  }

  watch(provider: FileSystemProviderV1): FileSystemProviderV1 {
    return watchProvider(provider, this.#effects);
  }

  notePath(path: WorkspacePath): void {
    const paths = this.#paths;
    if (paths.length < MAX_PATHS && !paths.includes(path)) paths.push(path);
  }

  noteDecision(noted: AuditDecision): void {
    const decision = this.#decision;
    // The strongest decision speaks for the call: one denied path denies it, one question asks.
    if (decision !== null && STRENGTH[noted.outcome] <= STRENGTH[decision.outcome]) return;
    const { approval } = noted;
    this.#decision =
      approval === undefined
        ? { outcome: noted.outcome, rule: noted.rule }
        : { outcome: noted.outcome, rule: noted.rule, approval: { answer: approval.answer, shown_sha256: approval.shown_sha256 } };
  }

  finish(result: CallResult): Promise<void> {
    const caller = this.#caller;
    const written = this.#append({
      time: this.#time,
      session: caller?.session ?? this.#session,
      process: this.#process,
      client: caller?.client === undefined ? null : { name: String(caller.client.name), version: String(caller.client.version) },
      tool: this.#tool,
      arguments_sha256: this.#hash,
      paths: this.#paths,
      decision: this.#decision,
      result: result.ok ? OK : { ok: false, code: result.error.code, effect: result.error.effect },
      effects: this.#effects,
      duration_ms: Math.round((performance.now() - this.#started) * 1000) / 1000,
    });
    this.#span?.end(this.#decision, result);
    return written;
  }
}
