/** Every code a failed call can carry (docs/rules.md, Errors); the set is closed. */
export const ERROR_CODES = [
  // arguments: effect none, nothing probed
  'invalid_arguments',
  'arguments_too_large',
  'invalid_path',
  'unsupported_encoding',
  'encode_failed',
  'invalid_name',
  'invalid_namespace',
  'invalid_object_type',
  'unknown_tool',
  // refusals before any probe: effect none
  'outside_workspace',
  'protected_path',
  'root_refused',
  'denied',
  'approval_required',
  'approval_rejected',
  'egress_denied',
  // observed state
  'not_found',
  'already_exists',
  'not_a_file',
  'not_a_directory',
  'directory_not_empty',
  'symlink_refused',
  'hard_link_refused',
  'decode_failed',
  'too_large',
  'content_conflict',
  'edit_mismatch',
  'changed_during_operation',
  'result_too_large',
  // Object Memory
  'namespace_not_found',
  'object_not_found',
  'name_taken',
  'unsupported_payload',
  'quota_exceeded',
  // host
  'provider_failure',
] as const;

/** One of the closed set of failure codes. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Whether a failure may have changed anything: `none` is a guarantee, `unknown` means observe before retrying. */
export type Effect = 'none' | 'unknown';

/** Tells whether a string is one of the closed set of failure codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
