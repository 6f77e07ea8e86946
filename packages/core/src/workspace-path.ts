import { isGitAlias } from './git-alias.js';
import { LibosError } from './libos-error.js';

declare const brand: unique symbol;

/**
 * A canonical identity relative to the workspace root: POSIX separators, no `.`, `..` or empty
 * segments, no trailing `/`, exactly `.` for the root. Only this module makes one.
 */
export type WorkspacePath = string & { readonly [brand]: 'WorkspacePath' };

/** The workspace root. */
export const ROOT_PATH = '.' as WorkspacePath;

/** The longest path in UTF-8 bytes, as given and once joined with the cwd. */
export const PATH_MAX_BYTES = 4096;
/** The longest path component in UTF-8 bytes. */
export const NAME_MAX_BYTES = 255;

/** Counts the UTF-8 bytes of a well-formed string without allocating. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Applies the path rules of docs/rules.md, Paths (rules 1 to 3) to `input`, relative to `cwd`, in
 * their order: rule 1 on the input as given (before any `..` is applied), rule 2, rule 1 again on the
 * joined canonical path, then rule 3. Throws `invalid_path`, `outside_workspace` or `protected_path`;
 * touches no filesystem.
 */
export function resolveWorkspacePath(cwd: WorkspacePath, input: string): WorkspacePath {
  if (input.includes('\0')) throw invalidPath('The path contains a NUL byte.', 'nul');
  if (input.startsWith('/')) throw invalidPath('The path is absolute; paths are relative to the working directory.', 'absolute');
  // A lone surrogate cannot name anything on disk: the host would open a U+FFFD name instead.
  if (!input.isWellFormed()) throw invalidPath('The path is not well-formed Unicode.', 'not_unicode');
  if (utf8ByteLength(input) > PATH_MAX_BYTES) {
    throw invalidPath(`The path is longer than ${PATH_MAX_BYTES} bytes.`, 'too_long');
  }
  const components = input.split('/');
  // Every component is judged before any `..` is applied: `../` and a 256-byte name is invalid,
  // whatever the cwd, rather than outside the workspace at the root and valid elsewhere.
  for (const component of components) {
    if (utf8ByteLength(component) > NAME_MAX_BYTES) {
      throw invalidPath(`A path component is longer than ${NAME_MAX_BYTES} bytes.`, 'component_too_long');
    }
  }
  const segments = cwd === ROOT_PATH ? [] : cwd.split('/');
  for (const component of components) {
    if (component === '' || component === '.') continue;
    if (component === '..') {
      if (segments.length === 0) throw new LibosError('outside_workspace', 'The path leads outside the workspace.');
      segments.pop();
    } else {
      segments.push(component);
    }
  }
  const canonical = segments.length === 0 ? ROOT_PATH : segments.join('/');
  // The bound on the joined path is what keeps every cwd and every tree the tools can make within
  // what the tools themselves can address, and so delete.
  if (utf8ByteLength(canonical) > PATH_MAX_BYTES) {
    throw invalidPath(`The path is longer than ${PATH_MAX_BYTES} bytes once joined with the working directory.`, 'canonical_too_long');
  }
  // Checked on the input, not only on the result, so `.git/../x` is refused rather than quietly
  // normalized; the cwd's own components were checked when it was set.
  if (components.some(isGitAlias)) {
    // The path it would have been, when that still names the alias: an audit record keeps it (a
    // refused write to .git/hooks is logged with its path), and the caller reads what was refused.
    const named = segments.some(isGitAlias) ? { details: { path: canonical } } : {};
    throw new LibosError('protected_path', 'The path names a .git directory, which is protected.', named);
  }
  return canonical as WorkspacePath;
}

/** Returns `value` as a WorkspacePath when it is already canonical (and names no `.git` alias), else null. */
export function parseCanonicalPath(value: string): WorkspacePath | null {
  if (value === '.') return ROOT_PATH;
  try {
    return resolveWorkspacePath(ROOT_PATH, value) === value ? (value as WorkspacePath) : null;
  } catch {
    return null;
  }
}

/** Tells whether a path is the workspace root. */
export function isRootPath(path: WorkspacePath): boolean {
  return path === ROOT_PATH;
}

/** The components of a path from the root down; empty for the root. */
export function pathSegments(path: WorkspacePath): string[] {
  return path === ROOT_PATH ? [] : path.split('/');
}

/** The parent of a path, or null for the root. */
export function parentPath(path: WorkspacePath): WorkspacePath | null {
  if (path === ROOT_PATH) return null;
  const slash = path.lastIndexOf('/');
  return (slash === -1 ? ROOT_PATH : path.slice(0, slash)) as WorkspacePath;
}

/** The last component of a path; `.` for the root. */
export function baseName(path: WorkspacePath): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The identity of an entry named `name` inside `parent`, for providers reporting what they list.
 * Throws `provider_failure` for a name no directory can hold.
 */
export function childPath(parent: WorkspacePath, name: string): WorkspacePath {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
    throw new LibosError('provider_failure', 'The provider reported an impossible entry name.', { effect: 'none' });
  }
  return (parent === ROOT_PATH ? name : `${parent}/${name}`) as WorkspacePath;
}

/** Tells whether `path` is `ancestor` or lies below it. */
export function isPathWithin(path: WorkspacePath, ancestor: WorkspacePath): boolean {
  if (ancestor === ROOT_PATH || path === ancestor) return true;
  return path.startsWith(`${ancestor}/`);
}

function invalidPath(message: string, reason: string): LibosError {
  return new LibosError('invalid_path', message, { details: { reason } });
}
