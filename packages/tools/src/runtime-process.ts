import { randomBytes } from 'node:crypto';
import { LibosError, type CallResult, type WorkspacePath } from '@libos/core';
import { runCall, type CallEnvironment, type CallOptions } from './call-pipeline.js';
import type { ProcessState } from './tool-definition.js';

/** Options of `spawn`: a working directory, validated like `set_working_directory`. */
export interface SpawnOptions {
  readonly cwd?: string;
}

/** An agent process: its own working directory and Object namespace, and the tools to call. */
export interface RuntimeProcess {
  /** `pid_` followed by 16 lowercase hex digits. */
  readonly id: string;
  /** The working directory, a canonical path relative to the workspace root. */
  readonly cwd: WorkspacePath;
  /** The process's own Object namespace, `process:<id>`. */
  readonly namespace: string;
  /** Runs one tool; never throws, every failure is `{ok: false, error}`. */
  call(name: string, args?: unknown, options?: CallOptions): Promise<CallResult>;
  /** A child process starting in this process's working directory. */
  spawn(): RuntimeProcess;
  /**
   * A child process starting in `cwd` (relative to this process's working directory). Rejects with a
   * LibosError when `cwd` is not a directory this process may read, as `set_working_directory` would fail.
   */
  spawn(options: SpawnOptions): Promise<RuntimeProcess>;
  /** The host directory of the working directory, when the provider is on real disk; else undefined. */
  hostWorkingDirectory(): string | undefined;
}

/** Creates a process at `cwd` (already known to be valid). */
export function createProcess(environment: CallEnvironment, cwd: WorkspacePath): RuntimeProcess {
  const id = `pid_${randomBytes(8).toString('hex')}`;
  const state: ProcessState = { id, cwd, namespace: environment.memory.openProcessNamespace(id) };
  function spawn(): RuntimeProcess;
  function spawn(options: SpawnOptions): Promise<RuntimeProcess>;
  function spawn(options?: SpawnOptions): RuntimeProcess | Promise<RuntimeProcess> {
    if (options === undefined) return createProcess(environment, state.cwd);
    return spawnAt(environment, state.cwd, options.cwd);
  }
  return {
    id,
    get cwd() {
      return state.cwd;
    },
    namespace: state.namespace,
    call: (name, args = {}, options = {}) => runCall(environment, state, name, args, options),
    spawn,
    hostWorkingDirectory: () => environment.provider.hostPath?.(state.cwd),
  };
}

/**
 * A new process whose cwd is `requested` resolved against `from`, checked by running
 * `set_working_directory` inside it, so authority, path rules and kind checks are exactly the tool's.
 */
export async function spawnAt(
  environment: CallEnvironment,
  from: WorkspacePath,
  requested: string | undefined,
): Promise<RuntimeProcess> {
  const child = createProcess(environment, from);
  if (requested === undefined) return child;
  const outcome = await child.call('set_working_directory', { path: requested });
  if (!outcome.ok) {
    const { code, message, effect, details } = outcome.error;
    throw new LibosError(code, message, { effect, ...(details === undefined ? {} : { details }) });
  }
  return child;
}
