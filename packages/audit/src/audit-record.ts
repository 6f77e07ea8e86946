import type { AuditApproval, AuditClient, Effect, ErrorCode, Grant } from '@libos/core';

/** What changed at one path: SHA-256 before and after (`null` for absent, or for a directory). */
export interface AuditEffect {
  readonly path: string;
  /** `null`: nothing was there (or a directory); `"unknown"`: the file could not be observed before the change. */
  readonly before_sha256: string | null;
  readonly after_sha256: string | null;
  /** The size after the change; `null` when nothing (or a directory) is there. */
  readonly size_bytes: number | null;
}

/** How the authority decided the call (the strongest of its decisions: denied, then asked, then allowed). */
export interface AuditRecordDecision {
  readonly outcome: 'allowed' | 'denied' | 'asked';
  readonly rule: Grant | null;
  readonly approval?: AuditApproval;
}

/** A call's outcome, never its content. */
export type AuditResult = { readonly ok: true } | { readonly ok: false; readonly code: ErrorCode; readonly effect: Effect };

/** One line of the log, in RFC 8785 canonical JSON (docs/audit.md). */
export interface AuditRecord {
  readonly seq: number;
  readonly time: string;
  readonly session: string;
  readonly process: string | null;
  readonly client: AuditClient | null;
  /** The tool, an overlay operation (`apply`, `undo_apply`, `discard`, `rewind`, `fork`), `session_start` or `session_end`. */
  readonly tool: string | null;
  readonly arguments_sha256: string | null;
  readonly paths: readonly string[];
  readonly decision: AuditRecordDecision | null;
  readonly result: AuditResult;
  readonly effects: readonly AuditEffect[];
  readonly duration_ms: number;
  readonly prev: string;
}

/** A record before the writer gives it its place in the chain. */
export type AuditEntry = Omit<AuditRecord, 'seq' | 'prev'>;

/** The keys every record has, in canonical order. */
export const RECORD_KEYS = [
  'arguments_sha256',
  'client',
  'decision',
  'duration_ms',
  'effects',
  'paths',
  'prev',
  'process',
  'result',
  'seq',
  'session',
  'time',
  'tool',
] as const;

/** One checkpoint line of `FILE.checkpoints`. */
export interface AuditCheckpoint {
  readonly seq: number;
  readonly record_sha256: string;
  readonly time: string;
  /** Base64 Ed25519 signature (docs/audit.md), or null when the log has no signing key. */
  readonly signature: string | null;
}
