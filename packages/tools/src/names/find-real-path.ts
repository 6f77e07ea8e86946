import {
  LibosError,
  ROOT_PATH,
  childPath,
  escapeForDisplay,
  isGitAlias,
  mayHaveLookAlikes,
  nameKey,
  pathSegments,
  type DirectoryEntry,
  type FileSystemProviderV1,
  type WorkspacePath,
} from '@libos/core';

/** How one path is looked up by names equal after Unicode normalization. */
export interface FindRealPathOptions {
  /** The call may create the last component: an entry of an equal name there is a look-alike twin, refused. */
  readonly creates: boolean;
  /** The most entries one listing of a directory reads (`bounds.list_limit_max`). */
  readonly listLimit: number;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The path as it exists in the workspace (docs/rules.md, "Names in another Unicode form"): each
 * component that is not found exactly is replaced by the one entry of its directory whose name
 * has the same `nameKey`. A component found exactly is kept (the exact spelling wins); one with no
 * equal name ends the lookup, and it and what follows stay as given. Costs one stat per component
 * and one bounded listing per component not found exactly; touches nothing. Throws `not_found`
 * when several entries are equal (`details.candidates`), and `already_exists` when `creates` and
 * the last component has an equal name (`details.existing`).
 */
export async function findRealPath(provider: FileSystemProviderV1, path: WorkspacePath, options: FindRealPathOptions): Promise<WorkspacePath> {
  const call = options.signal === undefined ? {} : { signal: options.signal };
  const segments = pathSegments(path);
  let real = ROOT_PATH;
  for (let index = 0; index < segments.length; index++) {
    const name = segments[index]!;
    const last = index === segments.length - 1;
    const exact = childPath(real, name);
    const rest = segments.slice(index + 1);
    const kind = await kindAt(provider, exact, call);
    if (kind !== 'missing') {
      // A refusal or anything but a directory on the way: the call itself reports it on this path.
      if (kind === undefined || (!last && kind !== 'directory')) return joined(exact, rest);
      real = exact;
      continue;
    }
    if (!mayHaveLookAlikes(name)) return joined(exact, rest);
    const equal = await equalNames(provider, real, name, options.listLimit, call);
    if (equal === undefined || equal.length === 0) return joined(exact, rest);
    if (equal.length > 1) throw ambiguous(exact, equal);
    const found = equal[0]!;
    // The path rules refused every `.git` alias as given; a name found by the lookup is judged again.
    if (isGitAlias(found.name)) throw new LibosError('protected_path', 'The path names a .git directory, which is protected.');
    if (last && options.creates) throw twin(exact, found.path);
    if (!last && found.kind !== 'directory') return joined(found.path, rest);
    real = found.path;
  }
  return real;
}

async function kindAt(provider: FileSystemProviderV1, path: WorkspacePath, call: { readonly signal?: AbortSignal }) {
  try {
    return (await provider.stat(path, call)).kind;
  } catch (error) {
    if (LibosError.is(error) && error.code !== 'provider_failure') return undefined;
    throw error;
  }
}

// One listing, bounded: in a directory of more entries only the first `limit` in code-point order
// are compared, so the lookup costs the same in a directory of millions.
async function equalNames(
  provider: FileSystemProviderV1,
  directory: WorkspacePath,
  name: string,
  limit: number,
  call: { readonly signal?: AbortSignal },
): Promise<DirectoryEntry[] | undefined> {
  const key = nameKey(name);
  try {
    const listing = await provider.listDirectory(directory, { ...call, limit });
    return listing.entries.slice(0, limit).filter((entry) => entry.name !== name && nameKey(entry.name) === key);
  } catch (error) {
    if (LibosError.is(error) && error.code !== 'provider_failure') return undefined;
    throw error;
  }
}

function joined(path: WorkspacePath, rest: readonly string[]): WorkspacePath {
  return rest.reduce<WorkspacePath>((parent, name) => childPath(parent, name), path);
}

function shown(path: string): string {
  return `"${escapeForDisplay(path, { quotes: true, maxLength: 300 })}"`;
}

function ambiguous(path: WorkspacePath, equal: readonly DirectoryEntry[]): LibosError {
  const candidates = equal.map((entry) => entry.path);
  return new LibosError(
    'not_found',
    `${shown(path)} does not exist with that exact spelling, and ${candidates.length} entries have names equal to it after Unicode normalization (${candidates.map(shown).join(', ')}); name one of them exactly (see details.candidates).`,
    { details: { path, candidates } },
  );
}

function twin(path: WorkspacePath, existing: WorkspacePath): LibosError {
  return new LibosError(
    'already_exists',
    `${shown(existing)} already exists, spelled with other Unicode code points; creating ${shown(path)} beside it would make two names no one can tell apart, so nothing was changed: use the existing name (details.existing).`,
    { details: { path, existing } },
  );
}
