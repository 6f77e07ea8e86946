/**
 * The error code a host error carries (`ENOENT`, `ERR_FS_EISDIR`, ...), or undefined for anything
 * that has none. Only the code is read: host messages and `path` fields name host paths.
 */
export function hostErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
