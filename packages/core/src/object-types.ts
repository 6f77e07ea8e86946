/** The closed set of Object types (docs/objects.md). */
export const OBJECT_TYPES = [
  'task',
  'goal',
  'plan',
  'step',
  'constraint',
  'message',
  'human_decision',
  'human_request',
  'tool_result',
  'observation',
  'error_trace',
  'code_patch',
  'test_result',
  'evidence',
  'claim',
  'summary',
  'skill',
  'tool_spec',
  'tool_candidate',
  'tool_artifact',
  'checkpoint',
  'process_state',
  'external_ref',
  'artifact',
] as const;

/** One of the Object types. */
export type ObjectType = (typeof OBJECT_TYPES)[number];

/** Tells whether a value is one of the Object types. */
export function isObjectType(value: unknown): value is ObjectType {
  return typeof value === 'string' && (OBJECT_TYPES as readonly string[]).includes(value);
}
