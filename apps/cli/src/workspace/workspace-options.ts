import { resolve } from 'node:path';
import { UsageError } from '../usage-error.js';
import { auditOptionsFrom, type AuditOptions } from './audit-options.js';
import { BACKEND_REGISTRY, backendFlags, type BackendRegistry } from './backend-registry.js';
import { mountOptionsFrom, type MountOptions } from './mount-options.js';

/** The flags every workspace command shares, for `parseArgs`, every backend's own flags included. */
export const WORKSPACE_FLAGS = {
  ...backendFlags(BACKEND_REGISTRY),
  root: { type: 'string' },
  mount: { type: 'string', multiple: true },
  'read-only': { type: 'string', multiple: true },
  provider: { type: 'string' },
  config: { type: 'string' },
  objects: { type: 'string' },
  audit: { type: 'string' },
  'audit-key': { type: 'string' },
  overlay: { type: 'string' },
  index: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Where the workspace lives and what the runtime starts from. */
export interface WorkspaceOptions extends MountOptions {
  /** A provider backend's name (`--provider`), found in the registry. */
  readonly provider: string;
  /** Host directory of a backend that serves one (absolute or relative to the current directory). */
  readonly root: string;
  /** The chosen backend's own flags that were given (`--seed`, `--database`, ...). */
  readonly backendFlags?: Readonly<Record<string, string>>;
  readonly configFile?: string;
  readonly objectsFile?: string;
  /** `--objects URL` with a scheme an Object store backend opens, instead of a checkpoint file. */
  readonly objectsUrl?: string;
  /** `--audit FILE` (and `--audit-key KEY`): record every call there (docs/audit.md). */
  readonly audit?: AuditOptions;
  /** `--overlay STATE`: the agent works on an overlay kept in this state file (docs/overlay.md). */
  readonly overlayFile?: string;
  /** `--index DIR`: answer searches from a trigram index kept in DIR (docs/tools.md, `@libos/search-index`). */
  readonly indexDirectory?: string;
  /** `--approvals DIR` (libos mcp|serve): pending approvals kept for the person, refused inside a served directory. */
  readonly approvalsDirectory?: string;
  /**
   * The local provider may borrow the process's working directory during its synchronous steps
   * (`borrowWorkingDirectory` of `@libos/provider-local`): set by the servers, whose process
   * resolves no relative path on another thread while they run.
   */
  readonly borrowWorkingDirectory?: boolean;
}

/** Checks the combination of workspace flags against the backends; a bad one is a UsageError. */
export function workspaceOptionsFrom(
  command: string,
  values: Readonly<Record<string, unknown>>,
  registry: BackendRegistry = BACKEND_REGISTRY,
): WorkspaceOptions {
  const name = stringFlag(values, 'provider') ?? registry.providers[0]!.name;
  const backend = registry.provider(name);
  if (backend === undefined) {
    const names = registry.providers.map((known) => `'${known.name}'`).join(', ');
    throw new UsageError(`${command}: --provider must be one of ${names}, not '${name}'`);
  }
  const root = stringFlag(values, 'root');
  if (root !== undefined && !backend.servesRoot) {
    throw new UsageError(`${command}: --root applies to ${providersWith(registry, (other) => other.servesRoot)}, not to --provider ${name}`);
  }
  const given: Record<string, string> = {};
  for (const flag of Object.keys(backendFlags(registry))) {
    const value = stringFlag(values, flag);
    if (value === undefined) continue;
    if (!(flag in backend.flags)) {
      throw new UsageError(`${command}: --${flag} applies to ${providersWith(registry, (other) => flag in other.flags)}, not to --provider ${name}`);
    }
    given[flag] = value;
  }
  for (const [flag, spec] of Object.entries(backend.flags)) {
    if (spec.required === true && given[flag] === undefined) throw new UsageError(`${command}: --provider ${name} needs --${flag} ${spec.value}`);
  }
  const objects = stringFlag(values, 'objects');
  return {
    provider: name,
    root: root ?? process.cwd(),
    ...mountOptionsFrom(command, values, backend),
    ...(Object.keys(given).length === 0 ? {} : { backendFlags: given }),
    ...(stringFlag(values, 'config') === undefined ? {} : { configFile: stringFlag(values, 'config')! }),
    ...(objects === undefined ? {} : objectsOption(command, objects, registry)),
    ...auditOptionsFrom(command, stringFlag(values, 'audit'), stringFlag(values, 'audit-key')),
    ...(stringFlag(values, 'overlay') === undefined ? {} : { overlayFile: stringFlag(values, 'overlay')! }),
    ...(stringFlag(values, 'index') === undefined ? {} : { indexDirectory: resolve(stringFlag(values, 'index')!) }),
  };
}

/** `--objects`: a URL an Object store backend opens, or a checkpoint file. */
function objectsOption(command: string, value: string, registry: BackendRegistry): Pick<WorkspaceOptions, 'objectsFile' | 'objectsUrl'> {
  if (registry.objectStoreFor(value) !== undefined) return { objectsUrl: value };
  const scheme = /^([a-z][a-z0-9+.-]*:)\/\//iu.exec(value)?.[1];
  if (scheme !== undefined) {
    const known = registry.objectStores.flatMap((store) => store.schemes).join(', ');
    throw new UsageError(`${command}: --objects: no Object store opens ${scheme} URLs (known: ${known}); a checkpoint file is a path`);
  }
  return { objectsFile: value };
}

function providersWith(registry: BackendRegistry, accepts: (backend: BackendRegistry['providers'][number]) => boolean): string {
  const names = registry.providers.filter(accepts).map((backend) => backend.name);
  return names.length === 0 ? 'no provider' : `--provider ${names.join(' or ')}`;
}

function stringFlag(values: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}
