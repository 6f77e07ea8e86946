import {
  LibosError,
  resolveWorkspacePath,
  type AccessRequest,
  type AuditCall,
  type AuditCallerContext,
  type AuditDecision,
  type AuditSession,
  type Authority,
  type Bounds,
  type CallResult,
  type FileSystemProviderV1,
  type Permit,
  type WorkspacePath,
} from '@libos/core';
import { wrapProvider } from '@libos/provider-kit';
import { tagProviderCalls } from './tag-provider-calls.js';
import type { ObjectMemory } from '@libos/object-memory';
import type { z } from 'zod';
import { resolveEncoding } from './encodings/index.js';
import { describeInputIssues } from './input-issues.js';
import { measureJson } from './measure-json.js';
import { assertMediaResultFits, assertResultFits, boundedFailure } from './result-bound.js';
import { sha256Hex } from './sha256-hex.js';
import type { ProcessState, ToolContext, ToolDefinition } from './tool-definition.js';
import type { ToolSummary } from './tool-summary.js';

/** A tool with its input schema built once for the runtime's bounds. */
export interface RegisteredTool {
  readonly definition: ToolDefinition;
  readonly inputSchema: z.ZodType;
  /** A user's tool: its result is checked against its output schema before it leaves the pipeline. */
  readonly checkOutput?: boolean;
}

/** What every call of one runtime shares. */
export interface CallEnvironment {
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  /** `runtime.tools`: what every process publishes. */
  readonly summaries: readonly ToolSummary[];
  /** The built-in set_working_directory, which `spawn({ cwd })` runs whatever the tool list holds. */
  readonly workingDirectoryTool: RegisteredTool;
  readonly provider: FileSystemProviderV1;
  readonly authority: Authority;
  readonly memory: ObjectMemory;
  readonly bounds: Bounds;
  /** Where every call is recorded (`createRuntime({ audit })`). */
  readonly audit?: AuditSession;
  isClosed(): boolean;
}

/** Options of one call. */
export interface CallOptions {
  /** Aborts a pending approval when the caller gives up on the call. */
  readonly signal?: AbortSignal;
  /** Who made the call (the MCP session and client), for its audit record. */
  readonly caller?: AuditCallerContext;
}

/**
 * Runs one tool call through the pipeline: argument size, tool lookup, plain-JSON check, strict
 * parse, encoding, then the tool (path rules, authority, provider), then the result size. Never
 * throws: every failure comes back as `{ok: false, error}`, `refusal` (when given) without running.
 */
export async function runCall(
  environment: CallEnvironment,
  state: ProcessState,
  name: string,
  args: unknown,
  options: CallOptions = {},
  refusal?: LibosError,
): Promise<CallResult> {
  // Opened before any check, so that every outcome has its record, and awaited before the answer.
  const audit = environment.audit?.begin({
    process: state.id,
    tool: name,
    arguments: args,
    ...(options.caller === undefined ? {} : { caller: options.caller }),
  });
  let result: CallResult;
  try {
    // A refusal decided before the pipeline (an ended process) fails the call before any check.
    if (refusal !== undefined) throw refusal;
    result = { ok: true, result: await execute(environment, state, name, args, options, audit) };
  } catch (error) {
    const failure = boundedFailure(toLibosError(error).toFailure(), environment.bounds);
    // Always present, `{}` when the tool gave none, as every app prints it: callers never branch on it.
    result = { ok: false, error: { ...failure, details: failure.details ?? {} } };
  }
  if (audit !== undefined) {
    try {
      await audit.finish(result);
    } catch (error) {
      return unrecorded(result, environment.tools.get(name)?.definition.annotations.readOnlyHint === true, error);
    }
  }
  return result;
}

/**
 * The answer of a call whose record could not be written (a full disk under the log): never a
 * success, since no one could later see what it did. What it did stands, and its effect says so: a
 * failure keeps its own, a success of a tool that may write is `unknown`.
 */
function unrecorded(result: CallResult, readOnly: boolean, cause: unknown): CallResult {
  const effect = !result.ok ? result.error.effect : readOnly ? 'none' : 'unknown';
  const error = new LibosError('provider_failure', 'The audit log could not record this call, so it is not answered as done.', { effect, cause });
  return { ok: false, error: { ...error.toFailure(), details: {} } };
}

async function execute(
  environment: CallEnvironment,
  state: ProcessState,
  name: string,
  args: unknown,
  options: CallOptions,
  audit: AuditCall | undefined,
): Promise<Record<string, unknown>> {
  const { bounds } = environment;
  const measure = measureJson(args, bounds.arguments_max_bytes);
  if (measure.bytes > bounds.arguments_max_bytes) {
    throw new LibosError('arguments_too_large', `The arguments are larger than ${bounds.arguments_max_bytes} bytes of JSON.`, {
      details: { max_bytes: bounds.arguments_max_bytes },
    });
  }
  const tool = typeof name === 'string' ? environment.tools.get(name) : undefined;
  if (tool === undefined) {
    // String() of a caller's object can throw, so only a string name is echoed.
    const message = typeof name === 'string' ? `There is no tool named ${JSON.stringify(name).slice(0, 200)}.` : 'The tool name must be a string.';
    throw new LibosError('unknown_tool', message, {
      details: { available: [...environment.tools.keys()] },
    });
  }
  if (!measure.plain || typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new LibosError('invalid_arguments', `The arguments of ${tool.definition.name} must be a plain JSON object.`);
  }
  const parsed = tool.inputSchema.safeParse(args);
  if (!parsed.success) {
    const issues = describeInputIssues(parsed.error.issues);
    throw new LibosError('invalid_arguments', `Invalid arguments for ${tool.definition.name}: ${issues[0]?.message ?? 'rejected'}.`, {
      details: { issues },
    });
  }
  const input = parsed.data as Record<string, unknown>;
  if (typeof input.encoding === 'string') resolveEncoding(input.encoding);
  if (environment.isClosed()) throw new LibosError('provider_failure', 'The runtime has been closed.', { effect: 'none' });

  const permits: Permit[] = [];
  let output: Record<string, unknown>;
  try {
    output = (await tool.definition.execute(
      input,
      // Only arguments too deep for JSON.stringify lack the text, and no tool's schema accepts those.
      createContext(environment, state, tool.definition.name, measure.json ?? '', options, permits, audit),
    )) as Record<string, unknown>;
  } finally {
    // Uses a shared ledger took for this call go back unless the call reached its probe (spend()).
    // A refund that fails leaves the use spent: fewer calls than granted, never more.
    if (permits.some((permit) => permit.release !== undefined)) await Promise.allSettled(permits.map((permit) => permit.release?.()));
  }
  // A read or a listing changed nothing; for the writing tools the effect already happened.
  const effect = tool.definition.annotations.readOnlyHint ? 'none' : 'unknown';
  if (tool.checkOutput === true) assertOutputMatches(tool.definition, output, effect);
  if (tool.definition.media === true) assertMediaResultFits(output, bounds, effect);
  else assertResultFits(output, bounds, effect);
  return output;
}

function createContext(
  environment: CallEnvironment,
  state: ProcessState,
  toolName: string,
  argumentsJson: string,
  options: CallOptions,
  permits: Permit[],
  audit: AuditCall | undefined,
): ToolContext {
  let argumentsSha256: string | undefined;
  const context: Mutable<ToolContext> = {
    process: state,
    provider: callProvider(environment.provider, toolName, audit),
    authority: environment.authority,
    memory: environment.memory,
    bounds: environment.bounds,
    get argumentsSha256() {
      // Hashed only when authority asks: most calls never need it.
      argumentsSha256 ??= sha256Hex(argumentsJson);
      return argumentsSha256;
    },
    async openProcessNamespace() {
      if (state.openNamespace !== undefined) return state.openNamespace();
      await environment.memory.openProcessNamespace(state.id);
    },
    async moveWorkingDirectory(cwd) {
      await state.keepCwd?.(cwd);
      state.cwd = cwd;
    },
    resolvePath(input) {
      let path: WorkspacePath;
      try {
        path = resolveWorkspacePath(state.cwd, input);
      } catch (error) {
        // A path refused as a .git alias is still the path the call named (docs/audit.md).
        const named = LibosError.is(error, 'protected_path') ? error.details?.path : undefined;
        // Recorded only, never opened: core made it by the same rules, but it is refused.
        if (typeof named === 'string') audit?.notePath(named as WorkspacePath);
        throw error;
      }
      audit?.notePath(path);
      return path;
    },
    async authorize(request) {
      audit?.notePath(request.path);
      // Built member by member: spreads of optional members cost a tenth of a small read.
      const access: Mutable<AccessRequest> = {
        tool: toolName,
        right: request.right,
        path: request.path,
        target: request.target,
        // A getter, so a policy that never shows the approver anything never hashes megabytes of arguments.
        get argumentsSha256() {
          return context.argumentsSha256;
        },
      };
      if (request.content !== undefined) access.content = request.content;
      if (request.prepareContent !== undefined) access.prepareContent = request.prepareContent;
      if (request.prepareLoss !== undefined) access.prepareLoss = request.prepareLoss;
      if (options.signal !== undefined) access.signal = options.signal;
      if (audit !== undefined) access.onDecision = (decision: AuditDecision) => audit.noteDecision(decision);
      const permit = await environment.authority.authorize(access);
      permits.push(permit);
      return permit;
    },
  };
  if (options.signal !== undefined) context.signal = options.signal;
  return context;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

// A user's tool is code libOS did not write: a result its own schema refuses would reach a client that
// trusts the published output schema (an MCP client validates structuredContent against it).
function assertOutputMatches(definition: ToolDefinition, output: unknown, effect: 'none' | 'unknown'): void {
  const checked = definition.outputSchema.safeParse(output);
  if (checked.success && typeof output === 'object' && output !== null && !Array.isArray(output)) return;
  const issue = checked.success ? 'it is not an object' : (describeInputIssues(checked.error.issues)[0]?.message ?? 'rejected');
  throw new LibosError('provider_failure', `The tool ${definition.name} returned a result that does not match its output schema: ${issue}.`, {
    effect,
  });
}

// A foreign exception may carry a host path in its message, so only its absence of meaning is reported.
function toLibosError(error: unknown): LibosError {
  if (LibosError.is(error)) return error;
  return new LibosError('provider_failure', 'The operation failed for an unexpected reason in the host.', { cause: error });
}

/**
 * The provider one call's tool sees: the runtime's provider under each layer of this list, innermost
 * first, every layer built with `wrapProvider` so none can drop a method. The audit trail observes
 * what the call changes; the tag names the tool to providers that record which tool changed what
 * (docs/overlay.md). Without an audit trail nothing in it belongs to one call, so each tool's
 * tagged provider is built once per provider, not bound again on every call.
 */
function callProvider(provider: FileSystemProviderV1, toolName: string, audit: AuditCall | undefined): FileSystemProviderV1 {
  if (audit !== undefined) return tagged(audit.watch(provider), toolName);
  let byTool = taggedProviders.get(provider);
  if (byTool === undefined) taggedProviders.set(provider, (byTool = new Map()));
  let own = byTool.get(toolName);
  if (own === undefined) byTool.set(toolName, (own = tagged(provider, toolName)));
  return own;
}

const taggedProviders = new WeakMap<FileSystemProviderV1, Map<string, FileSystemProviderV1>>();

function tagged(provider: FileSystemProviderV1, toolName: string): FileSystemProviderV1 {
  return wrapProvider(provider, tagProviderCalls(toolName));
}
