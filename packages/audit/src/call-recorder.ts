import type { AuditCall, AuditCallStart, AuditDecision, CallResult } from '@libos/core';
import type { AuditEffect, AuditEntry, AuditRecordDecision } from './audit-record.js';
import type { ArgumentsDigest } from './canonical-hash.js';
import { isoTime } from './iso-time.js';
import { startSpan } from './telemetry.js';
import { watchProvider } from './watch-provider.js';

// A search names one root, a move two: a call naming more keeps its first ones (a record stays small).
const MAX_PATHS = 64;

const STRENGTH = { allowed: 0, asked: 1, denied: 2 } as const;

/** The record of one call: what it named, how it was decided, what it changed, and how it ended. */
export function openCallRecorder(
  session: string,
  start: AuditCallStart,
  append: (entry: AuditEntry) => Promise<void>,
  digestArguments: ArgumentsDigest,
): AuditCall {
  const time = isoTime();
  const started = performance.now();
  // Hashed now: a caller may change its arguments object once the call has begun.
  const hash = digestArguments(start.arguments);
  const tool = typeof start.tool === 'string' ? start.tool : null;
  const paths: string[] = [];
  const effects: AuditEffect[] = [];
  let decision: AuditRecordDecision | null = null;
  const caller = start.caller;
  const span = startSpan(tool, caller);
  return {
    watch: (provider) => watchProvider(provider, effects),
    notePath(path) {
      if (paths.length < MAX_PATHS && !paths.includes(path)) paths.push(path);
    },
    noteDecision(noted: AuditDecision) {
      // The strongest decision speaks for the call: one denied path denies it, one question asks.
      if (decision !== null && STRENGTH[noted.outcome] <= STRENGTH[decision.outcome]) return;
      decision = {
        outcome: noted.outcome,
        rule: noted.rule,
        ...(noted.approval === undefined ? {} : { approval: { answer: noted.approval.answer, shown_sha256: noted.approval.shown_sha256 } }),
      };
    },
    finish(result: CallResult) {
      const written = append({
        time,
        session: caller?.session ?? session,
        process: start.process,
        client: caller?.client === undefined ? null : { name: String(caller.client.name), version: String(caller.client.version) },
        tool,
        arguments_sha256: hash,
        paths,
        decision,
        result: result.ok ? { ok: true } : { ok: false, code: result.error.code, effect: result.error.effect },
        effects,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      });
      span?.end(decision, result);
      return written;
    },
  };
}
