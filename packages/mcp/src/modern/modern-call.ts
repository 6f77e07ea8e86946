import type { AuditCallerContext } from '@libos/core';
import type { McpProcess } from '../mcp-runtime.js';

/**
 * Who and what one 2026-07-28 request runs as. There is no protocol session under 2026-07-28, so
 * the server resolves this per request (`resolveCall` of the handler options): the principal the
 * access check established, and the libOS process the call runs in with the handle that names it.
 * This is the seam a fleet backs with shared state: a handle resolved on one instance may be
 * resolved again on another.
 */
export interface ModernCall {
  /** Who is calling: the token's identity, or the single user. Approvals are bound to it. */
  readonly principal: string;
  /** The process handle: a string naming the process `process` is (bound into every approval). */
  readonly handle: string;
  readonly process: McpProcess;
  /** Called once the request is answered (a process made for this request alone ends here). */
  release(): Promise<void> | void;
}

/** What the server knows of a request when it resolves its call: the request and its parsed body. */
export interface ModernRequestInfo {
  readonly request: Request;
  readonly body: Readonly<Record<string, unknown>>;
  readonly caller: AuditCallerContext;
  /** The principal the endpoint's access check established (see `principalOf`). */
  readonly principal: string;
}

export type ResolveModernCall = (info: ModernRequestInfo) => Promise<ModernCall>;
