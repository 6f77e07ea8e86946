import type { ApprovalContent, Authority, DeletionLoss, Bounds, FileSystemProviderV1, Permit, Right, TargetKind, WorkspacePath } from '@libos/core';
import type { ObjectMemory } from '@libos/object-memory';
import type { z } from 'zod';

/** The process a call runs in: its id, its cwd and its own Object namespace. */
export interface ProcessState {
  readonly id: string;
  cwd: WorkspacePath;
  readonly namespace: string;
  /**
   * Makes the process's own namespace exist, when another owner than the runtime's memory keeps it
   * (a process kept as data, whose namespace lives as long as its handle); default
   * `memory.openProcessNamespace(id)`.
   */
  readonly openNamespace?: () => Promise<void>;
  /**
   * Keeps a new working directory where the process lives between calls (a process kept as data),
   * before the process moves there; a failure leaves the process where it was.
   */
  readonly keepCwd?: (cwd: WorkspacePath) => Promise<void>;
}

/** What a tool's `execute` may use: everything host-facing goes through the provider. */
export interface ToolContext {
  readonly process: ProcessState;
  readonly provider: FileSystemProviderV1;
  readonly authority: Authority;
  /** The runtime's one Object Memory. */
  readonly memory: ObjectMemory;
  readonly bounds: Bounds;
  /** Lowercase hex SHA-256 of the call's arguments JSON. */
  readonly argumentsSha256: string;
  readonly signal?: AbortSignal;
  /** Makes this process's own `process:<id>` namespace exist before an Object tool uses it (idempotent). */
  openProcessNamespace(): Promise<void>;
  /** Moves the process to `cwd` (already checked by set_working_directory), keeping it first where the process lives. */
  moveWorkingDirectory(cwd: WorkspacePath): Promise<void>;
  /** Applies the path rules to an input path against the process cwd. */
  resolvePath(input: string): WorkspacePath;
  /** Asks the authority (and the approver) for one right on one path; nothing is probed before it. */
  authorize(request: {
    readonly right: Right;
    readonly path: WorkspacePath;
    readonly target: TargetKind;
    readonly content?: ApprovalContent;
    /** Computes what an edit would land, only when an approver is about to be asked. */
    readonly prepareContent?: () => Promise<ApprovalContent | undefined>;
    /** Counts what a delete would remove, only when an approver is about to be asked. */
    readonly prepareLoss?: () => Promise<DeletionLoss | undefined>;
  }): Promise<Permit>;
}

/** MCP-style hints about a tool's effects. */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: false;
}

/**
 * One tool as data: schemas are the single source of validation, types and JSON Schema. `Input` is
 * what `execute` receives (defaults filled in), `CallInput` what a caller may pass, `Name` the tool's
 * literal name, so `process.call` can be typed from a list of definitions.
 */
// biome-ignore lint/suspicious/noExplicitAny: a list of tools with different inputs must be a ToolDefinition[]; `execute` takes Input (contravariant) and the schema yields it (covariant), so only `any` makes them one list.
export interface ToolDefinition<Input = any, Output = any, CallInput = Input, Name extends string = string> {
  /** 1 to 64 ASCII letters, digits, `_` or `-`: a name every model API accepts (built-in tools use snake_case). */
  readonly name: Name;
  readonly title: string;
  /** Written for a model: what the tool does, its defaults and its failures. */
  readonly description: string;
  /** The strict input schema; bounds decide the limits of `limit` and `max_bytes`. */
  inputSchema(bounds: Bounds): z.ZodType<Input, CallInput>;
  readonly outputSchema: z.ZodType<Output>;
  readonly annotations: ToolAnnotations;
  /**
   * True when every result is a media result (`mediaResultSchema`): its `data` is bounded by
   * `bounds.media_max_bytes` rather than `bounds.result_max_bytes`, and every transport hands it to
   * the model as media, once.
   */
  readonly media?: boolean;
  execute(input: Input, context: ToolContext): Promise<Output>;
}

/** Declares a tool, inferring its name, input and output types from its schemas. */
export function defineTool<Input, Output, CallInput, const Name extends string>(
  definition: ToolDefinition<Input, Output, CallInput, Name>,
): ToolDefinition<Input, Output, CallInput, Name> {
  return definition;
}
