import { randomBytes } from 'node:crypto';
import { LibosError, type AuditCallerContext, type CallResult, type WorkspacePath } from '@libos/core';
import { processNamespace } from '@libos/object-memory';
import { runCall, type CallEnvironment, type CallOptions } from './call-pipeline.js';
import { createProcessLifetime } from './process-lifetime.js';
import type { ProcessState } from './tool-definition.js';
import type { ToolSummary } from './tool-summary.js';
import type { ToolCallArguments, ToolCallResult, ToolList, ToolName } from './tool-types.js';
import type { BUILTIN_TOOLS } from './tools/index.js';

/** Options of `spawn`: a working directory, validated like `set_working_directory`. */
export interface SpawnOptions {
  readonly cwd?: string;
}

/**
 * An agent process: its own working directory and Object namespace, and the tools to call. `Tools`
 * is the runtime's tool list, so `call` knows each tool's input and output types.
 */
export interface RuntimeProcess<Tools extends ToolList = typeof BUILTIN_TOOLS> {
  /** `pid_` followed by 16 lowercase hex digits. */
  readonly id: string;
  /** The working directory, a canonical path relative to the workspace root. */
  readonly cwd: WorkspacePath;
  /** The process's own Object namespace, `process:<id>`. */
  readonly namespace: string;
  /** Every tool this process can call, with its JSON Schemas (the runtime's `tools`). */
  readonly tools: readonly ToolSummary[];
  /**
   * Runs one tool; never throws, every failure is `{ok: false, error}`. A literal tool name types the
   * arguments and `result`; any other string takes `unknown` arguments, checked at run time.
   */
  call<Name extends ToolName<Tools> | (string & {})>(name: Name, ...rest: ToolCallArguments<Tools, Name>): Promise<ToolCallResult<Tools, Name>>;
  /** A child process starting in this process's working directory. */
  spawn(): RuntimeProcess<Tools>;
  /**
   * A child process starting in `cwd` (relative to this process's working directory). Rejects with a
   * LibosError when `cwd` is not a directory this process may read, as `set_working_directory` would fail.
   */
  spawn(options: SpawnOptions): Promise<RuntimeProcess<Tools>>;
  /** The host directory of the working directory, when the provider is on real disk; else undefined. */
  hostWorkingDirectory(): string | undefined;
  /**
   * Ends the process (docs/rules.md, Object Memory): later calls fail with `denied`; once the calls in flight
   * have finished, its `process:<id>` namespace and that namespace's Objects are dropped. Children
   * are not ended with it. Safe to call twice.
   */
  end(): Promise<void>;
  /**
   * Names the session this process serves (an MCP session over Streamable HTTP) and writes its start
   * record in the runtime's audit trail; `end()` writes its end record once the calls in flight have
   * theirs. Without an audit trail it does nothing.
   */
  beginSession(caller: AuditCallerContext & { readonly session: string }): Promise<void>;
}

/**
 * The process's own namespace, opened in the Object store in the background: spawning stays
 * synchronous, and every Object tool awaits the same (idempotent) open before it uses the namespace.
 * `opened` settles when the open has, so that `end` never drops a namespace before it exists.
 */
function openNamespace(environment: CallEnvironment, id: string): { namespace: string; opened: Promise<unknown> } {
  return { namespace: processNamespace(id), opened: environment.memory.openProcessNamespace(id).catch(() => undefined) };
}

/** Creates a process at `cwd` (already known to be valid). */
export function createProcess<Tools extends ToolList>(environment: CallEnvironment, cwd: WorkspacePath): RuntimeProcess<Tools> {
  const id = `pid_${randomBytes(8).toString('hex')}`;
  const { namespace, opened } = openNamespace(environment, id);
  return processFromState(environment, { id, cwd, namespace }, opened);
}

function processFromState<Tools extends ToolList>(
  environment: CallEnvironment,
  state: ProcessState,
  opened: Promise<unknown>,
): RuntimeProcess<Tools> {
  const { id } = state;
  function spawn(): RuntimeProcess<Tools>;
  function spawn(options: SpawnOptions): Promise<RuntimeProcess<Tools>>;
  function spawn(options?: SpawnOptions): RuntimeProcess<Tools> | Promise<RuntimeProcess<Tools>> {
    if (options === undefined) return createProcess<Tools>(environment, state.cwd);
    return spawnAt<Tools>(environment, state.cwd, options.cwd);
  }
  const lifetime = createProcessLifetime(id);
  let served: (AuditCallerContext & { readonly session: string }) | undefined;
  // The pipeline checks every argument at run time; the types only spare a TypeScript caller the mistake.
  const call = (name: string, args: unknown = {}, options: CallOptions = {}): Promise<CallResult> =>
    lifetime.run((refusal) => runCall(environment, state, name, args, options, refusal));
  return {
    id,
    get cwd() {
      return state.cwd;
    },
    namespace: state.namespace,
    tools: environment.summaries,
    call: call as RuntimeProcess<Tools>['call'],
    spawn,
    hostWorkingDirectory: () => environment.provider.hostPath?.(state.cwd),
    async beginSession(caller) {
      if (served !== undefined || lifetime.ended) return;
      served = caller;
      await environment.audit?.recordSession?.('session_start', caller);
    },
    end: () =>
      lifetime.end(async () => {
        // After the records of every call it served. A record that cannot be written was reported
        // by the trail itself (a file log's onError); ending the process must not fail for it.
        if (served !== undefined) await environment.audit?.recordSession?.('session_end', served).catch(() => undefined);
        await opened;
        // A closed runtime has dropped its process namespaces already.
        if (!environment.isClosed()) await environment.memory.dropNamespace(state.namespace);
      }),
  };
}

/**
 * A new process whose cwd is `requested` resolved against `from`, checked by running
 * `set_working_directory` inside it, so authority, path rules and kind checks are exactly the tool's.
 */
export async function spawnAt<Tools extends ToolList>(
  environment: CallEnvironment,
  from: WorkspacePath,
  requested: string | undefined,
): Promise<RuntimeProcess<Tools>> {
  const id = `pid_${randomBytes(8).toString('hex')}`;
  const { namespace, opened } = openNamespace(environment, id);
  const state: ProcessState = { id, cwd: from, namespace };
  const child = processFromState<Tools>(environment, state, opened);
  if (requested === undefined) return child;
  // The built-in tool, even when the runtime's own list leaves set_working_directory out.
  const check: CallEnvironment = { ...environment, tools: new Map([['set_working_directory', environment.workingDirectoryTool]]) };
  const outcome = await runCall(check, state, 'set_working_directory', { path: requested });
  if (!outcome.ok) {
    // A process that was never handed out must not leave its namespace behind.
    await child.end();
    const { code, message, effect, details } = outcome.error;
    throw new LibosError(code, message, { effect, ...(details === undefined ? {} : { details }) });
  }
  return child;
}
