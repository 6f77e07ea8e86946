import { UsageError } from '../usage-error.js';
import { auditOptionsFrom, type AuditOptions } from './audit-options.js';

/** The flags every workspace command shares, for `parseArgs`. */
export const WORKSPACE_FLAGS = {
  root: { type: 'string' },
  provider: { type: 'string' },
  seed: { type: 'string' },
  config: { type: 'string' },
  objects: { type: 'string' },
  audit: { type: 'string' },
  'audit-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Where the workspace lives and what the runtime starts from. */
export interface WorkspaceOptions {
  readonly provider: 'local' | 'memfs';
  /** Host directory of the local provider (absolute or relative to the current directory). */
  readonly root: string;
  readonly seed?: string;
  readonly configFile?: string;
  readonly objectsFile?: string;
  /** `--objects postgres://…`: Object Memory in that database instead of a checkpoint file. */
  readonly objectsUrl?: string;
  /** `--audit FILE` (and `--audit-key KEY`): record every call there (docs/audit.md). */
  readonly audit?: AuditOptions;
  /**
   * The local provider may borrow the process's working directory during its synchronous steps
   * (`borrowWorkingDirectory` of `@libos/provider-local`): set by the servers, whose process
   * resolves no relative path on another thread while they run.
   */
  readonly borrowWorkingDirectory?: boolean;
}

interface WorkspaceFlagValues {
  readonly root?: string | undefined;
  readonly provider?: string | undefined;
  readonly seed?: string | undefined;
  readonly config?: string | undefined;
  readonly objects?: string | undefined;
  readonly audit?: string | undefined;
  readonly 'audit-key'?: string | undefined;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** Checks the combination of workspace flags; a bad one is a UsageError. */
export function workspaceOptionsFrom(command: string, values: WorkspaceFlagValues): WorkspaceOptions {
  const provider = values.provider ?? 'local';
  if (provider !== 'local' && provider !== 'memfs') {
    throw new UsageError(`${command}: --provider must be 'local' or 'memfs', not '${provider}'`);
  }
  if (provider === 'local' && values.seed !== undefined) {
    throw new UsageError(`${command}: --seed needs --provider memfs (the local provider works on --root directly)`);
  }
  if (provider === 'memfs' && values.root !== undefined) {
    throw new UsageError(`${command}: --root applies to the local provider; use --seed DIR to copy a directory into memfs`);
  }
  return {
    provider,
    root: values.root ?? process.cwd(),
    ...(values.seed === undefined ? {} : { seed: values.seed }),
    ...(values.config === undefined ? {} : { configFile: values.config }),
    ...(values.objects === undefined ? {} : POSTGRES_URL.test(values.objects) ? { objectsUrl: values.objects } : { objectsFile: values.objects }),
    ...auditOptionsFrom(command, values.audit, values['audit-key']),
  };
}
