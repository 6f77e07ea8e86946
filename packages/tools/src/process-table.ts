import { LibosError, ROOT_PATH, type CallResult, type ProcessStoreV1, type WorkspacePath } from '@libos/core';
import { processNamespace } from '@libos/object-memory';
import { runCall, type CallEnvironment, type CallOptions } from './call-pipeline.js';
import { createMemoryProcessStore } from './memory-process-store.js';
import { isHandleShaped, mintHandle, mintProcessId, processKey } from './process-handle.js';
import { toolsWithProcess, WORKING_DIRECTORY_TOOLS } from './process-tools.js';
import type { ProcessState } from './tool-definition.js';
import type { ToolSummary } from './tool-summary.js';

/** Options of `runtime.openProcessTable`. */
export interface ProcessTableOptions {
  /** Where processes live between calls (`@libos/state-postgres` for a fleet); default this host's memory. */
  readonly store?: ProcessStoreV1;
  /** A process unused this long expires, its handle refused and its namespace dropped (default 900 s). */
  readonly idleMs?: number;
  /** Where the table reports what no caller sees (a sweep that failed). */
  readonly log?: (line: string) => void;
}

/**
 * The agent's process as data, for callers that keep no session (MCP 2026-07-28): each call names
 * its process by a handle in the `process` argument (docs/mcp.md). A handle belongs to the
 * principal that made it; for anyone else it does not exist.
 */
export interface ProcessTable {
  /** The runtime's tools with the optional `process` argument, and `process` in the working-directory tools' results. */
  readonly tools: readonly ToolSummary[];
  /**
   * Runs one call for `principal` (who the caller proved to be: its token, or the single user) in
   * the process `args.process` names; never throws. Without `process`, set_working_directory starts
   * a new process and any other tool runs in a process of its own at `.` that ends with the call.
   */
  call(principal: string, name: string, args: unknown, options?: CallOptions): Promise<CallResult>;
  /** Stops sweeping expired processes and closes the store. Safe to call twice. */
  close(): Promise<void>;
}

const DEFAULT_IDLE_MS = 900_000;

// One refusal for every handle that leads nowhere for this caller: never minted, minted for another
// principal, expired, or not a handle at all. Nothing in it tells those apart.
const unknownProcess = () =>
  new LibosError(
    'denied',
    'No live process of yours has this handle (it expired or was never yours); call set_working_directory without process to start one.',
    {
      details: {},
    },
  );

/** Builds the table over a runtime's call environment. */
export function createProcessTable(environment: CallEnvironment, options: ProcessTableOptions = {}): ProcessTable {
  const store = options.store ?? createMemoryProcessStore();
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  if (!Number.isSafeInteger(idleMs) || idleMs < 1) {
    throw new LibosError('invalid_arguments', 'The option idleMs must be a positive integer.', { details: { option: 'idleMs' } });
  }
  const tools = toolsWithProcess(environment.summaries);
  const log = options.log ?? (() => {});
  const { memory } = environment;
  let closing: Promise<void> | undefined;

  const sweeper = startSweeping(
    idleMs,
    async () => {
      // Each expired pid comes back to exactly one sweeping host, which drops its Objects.
      for (const pid of await store.sweep(idleMs)) await memory.dropNamespace(processNamespace(pid));
    },
    log,
  );

  /** A state for a call refused before it runs, so that it is recorded like every other. */
  const refused = (): ProcessState => {
    const id = mintProcessId();
    return { id, cwd: ROOT_PATH, namespace: processNamespace(id) };
  };

  async function inHandle(principal: string, handle: unknown, name: string, args: unknown, options: CallOptions): Promise<CallResult> {
    if (typeof handle !== 'string') {
      const refusal = new LibosError('invalid_arguments', 'The argument process must be a string: a handle set_working_directory returned.');
      return runCall(environment, refused(), name, args, options, refusal);
    }
    const key = isHandleShaped(handle) ? processKey(principal, handle) : undefined;
    let record: Awaited<ReturnType<ProcessStoreV1['touch']>>;
    try {
      record = key === undefined ? undefined : await store.touch(key, idleMs, { signal: options.signal });
    } catch (error) {
      return runCall(environment, refused(), name, args, options, storeFailure(error, 'none'));
    }
    if (record === undefined || key === undefined) return runCall(environment, refused(), name, args, options, unknownProcess());
    const state: ProcessState = {
      id: record.pid,
      cwd: record.cwd as WorkspacePath,
      namespace: processNamespace(record.pid),
      // Declared when the process was started; it lives as long as the handle.
      openNamespace: async () => undefined,
      async keepCwd(cwd) {
        if (!(await store.setCwd(key, cwd, idleMs))) throw unknownProcess();
      },
    };
    return withHandle(name, await runCall(environment, state, name, args, options), handle);
  }

  async function started(principal: string, args: unknown, options: CallOptions): Promise<CallResult> {
    const handle = mintHandle();
    const pid = mintProcessId();
    const namespace = processNamespace(pid);
    const state: ProcessState = {
      id: pid,
      cwd: ROOT_PATH,
      namespace,
      openNamespace: async () => undefined,
      async keepCwd(cwd) {
        // The record first: a host that dies before the namespace leaves a handle no one was given,
        // which expires and whose (absent) namespace the sweep drops.
        await store.create(processKey(principal, handle), { pid, cwd });
        await memory.declareNamespace(namespace);
      },
    };
    return withHandle('set_working_directory', await runCall(environment, state, 'set_working_directory', args, options), handle);
  }

  async function alone(name: string, args: unknown, options: CallOptions): Promise<CallResult> {
    const pid = mintProcessId();
    let opened = false;
    const state: ProcessState = {
      id: pid,
      cwd: ROOT_PATH,
      namespace: processNamespace(pid),
      async openNamespace() {
        opened = true;
        await memory.openProcessNamespace(pid);
      },
    };
    try {
      return await runCall(environment, state, name, args, options);
    } finally {
      // The process ends with its one call, and its namespace with it.
      if (opened && !environment.isClosed()) await memory.dropNamespace(state.namespace).catch(() => undefined);
    }
  }

  return {
    tools,
    async call(principal, name, args, options = {}) {
      if (typeof args !== 'object' || args === null || Array.isArray(args) || !Object.hasOwn(args, 'process')) {
        if (name === 'set_working_directory') return started(principal, args, options);
        // Arguments that are not an object are refused by the pipeline, as for any process.
        return alone(name, args, options);
      }
      const { process: handle, ...rest } = args as Record<string, unknown>;
      return inHandle(principal, handle, name, rest, options);
    },
    close() {
      closing ??= (async () => {
        await sweeper.stop();
        await store.close();
      })();
      return closing;
    },
  };
}

/** The working-directory tools answer with the handle of the process they ran in. */
function withHandle(name: string, result: CallResult, handle: string): CallResult {
  if (!result.ok || !WORKING_DIRECTORY_TOOLS.has(name)) return result;
  return { ok: true, result: { ...result.result, process: handle } };
}

function storeFailure(error: unknown, effect: 'none' | 'unknown'): LibosError {
  if (LibosError.is(error)) return error;
  return new LibosError('provider_failure', 'The process store could not be reached.', { effect, cause: error });
}

/** Sweeps every quarter of the idle time (between 1 s and 30 s), one sweep at a time. */
function startSweeping(idleMs: number, sweep: () => Promise<void>, log: (line: string) => void): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(
    () => {
      if (running !== undefined) return;
      running = sweep()
        .catch((error: unknown) => log(`the sweep of expired processes failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (running = undefined));
    },
    Math.min(Math.max(Math.floor(idleMs / 4), 1_000), 30_000),
  );
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
