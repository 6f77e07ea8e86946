import type { Grant } from './config.js';
import type { CallResult } from './call-result.js';
import type { FileSystemProviderV1 } from './provider.js';
import type { WorkspacePath } from './workspace-path.js';

/** The MCP client that made a call, as it named itself in `initialize`. */
export interface AuditClient {
  readonly name: string;
  readonly version: string;
}

/** Who a call came from, for its record: the MCP session and client when the call came over MCP. */
export interface AuditCallerContext {
  readonly session?: string;
  readonly client?: AuditClient;
}

/** What the person asked about an `ask` grant answered, and the SHA-256 of the sentence they were shown. */
export interface AuditApproval {
  readonly answer: 'approved' | 'rejected' | 'unanswered';
  /** Lowercase hex SHA-256 of the UTF-8 of the approval message (`ApprovalRequest.message`). */
  readonly shown_sha256: string | null;
}

/** How the authority decided one right on one path: `rule` is the deciding grant (null without a policy or when none matched). */
export interface AuditDecision {
  readonly outcome: 'allowed' | 'denied' | 'asked';
  readonly rule: Grant | null;
  readonly approval?: AuditApproval;
}

/** One call as it starts: the pipeline opens it before anything is checked, so every outcome is recorded. */
export interface AuditCallStart {
  readonly process: string;
  readonly tool: unknown;
  readonly arguments: unknown;
  readonly caller?: AuditCallerContext;
}

/** The record of one call while it runs; the pipeline awaits `finish` before it answers. */
export interface AuditCall {
  /** The provider the call's tool uses, wrapped so that what it changes is observed (before/after SHA-256). */
  watch(provider: FileSystemProviderV1): FileSystemProviderV1;
  /** A canonical path the call named (authorized, or about to be). */
  notePath(path: WorkspacePath): void;
  /** One authority decision of the call. */
  noteDecision(decision: AuditDecision): void;
  /**
   * Writes the record; resolves once it is in the log (before the caller sees the result). Rejects
   * when it could not be written: the call is then answered `provider_failure`, never as a success.
   */
  finish(result: CallResult): Promise<void>;
}

/** One runtime's session in an audit trail (its start record is written when it opens). */
export interface AuditSession {
  readonly id: string;
  begin(start: AuditCallStart): AuditCall;
  /**
   * Writes the start or end record of a session inside this one whose calls name it as their
   * caller's `session` (an MCP session over Streamable HTTP, served by one process).
   */
  recordSession?(event: 'session_start' | 'session_end', caller: AuditCallerContext & { readonly session: string }): Promise<void>;
  /** Writes the session's end record. */
  end(): Promise<void>;
}

/** Where a runtime records every call (`createRuntime({ audit })`); `@libos/audit` makes one that writes a file. */
export interface AuditTrail {
  /**
   * Opens one session: writes its start record. `root` is the host directory the provider serves
   * (when it has one): a trail refuses to lie inside it. Rejects when the trail cannot record.
   */
  openSession(info: { readonly provider: string; readonly root?: string }): Promise<AuditSession>;
}
