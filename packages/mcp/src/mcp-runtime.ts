import type { AuditCallerContext } from '@libos/core';
import type { Runtime, ToolCaller } from '@libos/tools';

/** What one MCP session's calls run in: a runtime's process (a `RuntimeProcess` is one). */
export type McpProcess = Pick<ToolCaller, 'call'> & {
  /** Ends the process with its session (its `process:` namespace is dropped). */
  end?(): void | Promise<void>;
  /** Names the MCP session it serves, for the audit trail's start record (its end record comes with `end`). */
  beginSession?(caller: AuditCallerContext & { readonly session: string }): Promise<void>;
};

/**
 * What the server needs of a runtime (a `Runtime` from `@libos/tools` is one): the tools it
 * publishes, the bounds that size its messages, and a process per session.
 */
export type McpRuntime = Pick<Runtime, 'tools' | 'bounds'> & { spawn(): McpProcess };
