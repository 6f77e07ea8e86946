import type { Approver, AuditCallerContext, Bounds, CallResult } from '@libos/core';

/** What the CLI reads of each entry of `runtime.tools`. */
export interface ToolSummary {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema: Readonly<Record<string, unknown>>;
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint?: boolean;
  };
}

/** The part of a runtime process the CLI drives. */
export interface ToolProcess {
  call(name: string, args: unknown, options?: { readonly signal?: AbortSignal; readonly caller?: AuditCallerContext }): Promise<CallResult>;
  /** Ends the process: its calls are refused from then on and its `process:` namespace is dropped. */
  end?(): void | Promise<void>;
}

/** The part of a runtime the CLI drives (CONTRACT.md section 9). */
export interface WorkspaceRuntime {
  readonly tools: readonly ToolSummary[];
  readonly bounds: Bounds;
  /** The runtime's Object Memory, read side. */
  readonly objects: { listNamespaces(): Promise<readonly string[]> };
  spawn(): ToolProcess;
  /** Saves the live Objects of these namespaces to a file (Object Memory, CONTRACT.md section 7). */
  checkpoint(file: string, options: { readonly namespaces: readonly string[] }): Promise<unknown>;
  close(): Promise<void>;
}

export type { Approver };
