import {
  LibosError,
  ROOT_PATH,
  parseConfig,
  type Approver,
  type AuditTrail,
  type Bounds,
  type ConfigInput,
  type FileSystemProviderV1,
  type LibosConfig,
} from '@libos/core';
import { createObjectMemory, objectMemoryReader, type CheckpointSummary, type ObjectMemoryReader, type ObjectStoreV1 } from '@libos/object-memory';
import { adaptProvider } from './adapt-provider.js';
import { checkWorkspaceQuota } from './check-workspace-quota.js';
import { createAuthority } from './authority/create-authority.js';
import type { CallEnvironment } from './call-pipeline.js';
import { createProcessTable, type ProcessTable, type ProcessTableOptions } from './process-table.js';
import { createProcess, spawnAt, type RuntimeProcess, type SpawnOptions } from './runtime-process.js';
import { registerTools } from './register-tools.js';
import type { ToolSummary } from './tool-summary.js';
import type { ToolDefinition } from './tool-definition.js';
import type { ToolList } from './tool-types.js';
import { BUILTIN_TOOLS } from './tools/index.js';
import { setWorkingDirectory } from './tools/set-working-directory.js';

/** Options of `createRuntime`. */
export interface RuntimeOptions<Tools extends ToolList = typeof BUILTIN_TOOLS> {
  readonly provider: FileSystemProviderV1;
  /**
   * The tools the runtime serves, in the order it publishes them (default `BUILTIN_TOOLS`). Add your
   * own made with `defineTool`: `[...BUILTIN_TOOLS, myTool]`; they run through the same pipeline.
   */
  readonly tools?: Tools;
  /** A config from `loadConfig`, or the same shape inline; validated either way. Default: no policy, default bounds. */
  readonly config?: LibosConfig | ConfigInput;
  /** Answers `ask` grants; without one they fail with `approval_required`. */
  readonly approver?: Approver;
  /** How long an `ask` waits for the approver before it fails with `approval_required` (default 10 minutes). */
  readonly approvalTimeoutMs?: number;
  /** A checkpoint file (host path) whose Objects the runtime's memory starts with. */
  readonly restore?: string;
  /**
   * Where Object Memory lives (an `ObjectStoreV1`, e.g. `createPostgresObjectStore(...)`); default a
   * new in-memory store. With a config `policy_id`, grant `uses` are counted in its ledger too. The
   * runtime closes it in `close()`.
   */
  readonly objectStore?: ObjectStoreV1;
  /**
   * Records every call, whatever its outcome, with its decision and effects (`createFileAuditLog`
   * from `@libos/audit`); the runtime opens one session in it and ends that session in `close()`.
   */
  readonly audit?: AuditTrail;
}

/** One provider, one authority policy and the bounds, serving processes. */
export interface Runtime<Tools extends ToolList = typeof BUILTIN_TOOLS> {
  /** The validated config, defaults filled in. */
  readonly config: LibosConfig;
  readonly bounds: Bounds;
  readonly provider: FileSystemProviderV1;
  /** Every tool with its JSON Schemas, for `tools/list` and other model APIs. */
  readonly tools: readonly ToolSummary[];
  /** Reads and lists the runtime's Objects (every method returns a promise), including namespaces restored from a checkpoint. */
  readonly objects: ObjectMemoryReader;
  /** Writes the live Objects of `namespaces` (default: all) into one SQLite file, replacing it atomically. */
  checkpoint(file: string, options?: { readonly namespaces?: readonly string[] }): Promise<CheckpointSummary>;
  /** A new process whose working directory is the workspace root. */
  spawn(): RuntimeProcess<Tools>;
  /** A new process starting in `cwd` (from the root); rejects like `set_working_directory` would. */
  spawn(options: SpawnOptions): Promise<RuntimeProcess<Tools>>;
  /**
   * The runtime's processes kept as data, for callers without a session (MCP 2026-07-28): each call
   * names its process by a handle (docs/mcp.md). Processes from `spawn` are not in it. The runtime
   * closes the table (and its store) in `close()`.
   */
  openProcessTable(options?: ProcessTableOptions): ProcessTable;
  /**
   * Closes the provider and the Object store (dropping the process namespaces of this runtime's
   * processes first); later calls fail with `provider_failure`. Safe to call twice.
   */
  close(): Promise<void>;
}

// A person may take a while to answer, but a call must not wait forever on an approver that never does.
const DEFAULT_APPROVAL_TIMEOUT_MS = 600_000;

const BUILTIN_SET: ReadonlySet<ToolDefinition> = new Set(BUILTIN_TOOLS);

const REQUIRED_CAPABILITIES = ['atomicReplace', 'exclusiveCreate'] as const;

/**
 * Builds a runtime over a provider. Throws `invalid_arguments` for a malformed config, a provider
 * that cannot replace files atomically or create them exclusively, a `bounds.workspace_max_bytes`
 * the provider does not enforce, or a tool list with a malformed or repeated tool.
 */
export async function createRuntime<const Tools extends ToolList = typeof BUILTIN_TOOLS>(options: RuntimeOptions<Tools>): Promise<Runtime<Tools>> {
  // The version seam: whatever interface version the provider implements, the tools see the current one.
  const provider = adaptProvider(options.provider);
  const missing = REQUIRED_CAPABILITIES.filter((capability) => provider.capabilities[capability] !== true);
  if (missing.length > 0) {
    throw new LibosError(
      'invalid_arguments',
      `The provider "${provider.name}" lacks ${missing.join(' and ')}, which write_text_file needs to be safe.`,
      { details: { missing } },
    );
  }
  const config = parseConfig(options.config ?? {});
  checkWorkspaceQuota(provider, config.bounds);
  const memory = await createObjectMemory({
    ...(options.objectStore === undefined ? {} : { store: options.objectStore }),
    maxPayloadBytes: config.bounds.object_payload_max_bytes,
    maxObjectsBytes: config.bounds.objects_max_bytes,
    maxObjectsCount: config.bounds.objects_max_count,
    namespaces: config.namespaces.map((namespace) => namespace.name),
    ...(options.restore === undefined ? {} : { restore: options.restore }),
  });
  const authority = createAuthority({
    config,
    approvalTimeoutMs: options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    usesStore: memory.store,
    ...(options.approver === undefined ? {} : { approver: options.approver }),
  });
  const { registered, tools } = registerTools(options.tools ?? BUILTIN_TOOLS, config.bounds, BUILTIN_SET);
  const audit = options.audit === undefined ? undefined : await options.audit.openSession({ provider: provider.name, ...rootOf(provider) });
  let closed = false;
  let closing: Promise<void> | undefined;
  const environment: CallEnvironment = {
    tools: registered,
    summaries: tools,
    workingDirectoryTool: { definition: setWorkingDirectory, inputSchema: setWorkingDirectory.inputSchema(config.bounds) },
    provider,
    authority,
    memory,
    bounds: config.bounds,
    ...(audit === undefined ? {} : { audit }),
    isClosed: () => closed,
  };

  function spawn(): RuntimeProcess<Tools>;
  function spawn(spawnOptions: SpawnOptions): Promise<RuntimeProcess<Tools>>;
  function spawn(spawnOptions?: SpawnOptions): RuntimeProcess<Tools> | Promise<RuntimeProcess<Tools>> {
    if (spawnOptions === undefined) return createProcess<Tools>(environment, ROOT_PATH);
    return spawnAt<Tools>(environment, ROOT_PATH, spawnOptions.cwd);
  }
  const tables: ProcessTable[] = [];

  return {
    config,
    bounds: config.bounds,
    provider,
    tools,
    objects: objectMemoryReader(memory),
    checkpoint: async (file, checkpointOptions) => memory.checkpoint(file, checkpointOptions),
    spawn,
    openProcessTable(tableOptions) {
      const table = createProcessTable(environment, tableOptions);
      tables.push(table);
      return table;
    },
    close() {
      closed = true;
      closing ??= (async () => {
        // The tables stop sweeping before the memory whose namespaces they drop closes.
        await Promise.allSettled(tables.map((table) => table.close()));
        const [providerClosed, memoryClosed, auditEnded] = await Promise.allSettled([provider.close(), memory.close(), audit?.end()]);
        if (providerClosed.status === 'rejected') throw providerClosed.reason;
        if (memoryClosed.status === 'rejected') throw memoryClosed.reason;
        if (auditEnded.status === 'rejected') throw auditEnded.reason;
      })();
      return closing;
    },
  };
}

// The host directory a real-disk provider serves, so an audit trail can refuse to lie inside it.
function rootOf(provider: FileSystemProviderV1): { root?: string } {
  try {
    const root = provider.hostPath?.(ROOT_PATH);
    return root === undefined ? {} : { root };
  } catch {
    return {};
  }
}
