import type { ErrorCode, LibosError } from '@libos/core';

/** The `details` keys of one error code: `required` always present, `optional` allowed. */
export interface DetailsShape {
  readonly required: readonly string[];
  readonly optional: readonly string[];
}

/** A details table by code, as core publishes one per interface (`PROVIDER_ERROR_DETAILS`, `OBJECT_STORE_ERROR_DETAILS`). */
export type DetailsTable = Readonly<Partial<Record<ErrorCode, DetailsShape>>>;

const snakeCase = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/**
 * Says how an error's `details` differ from the shape `table` gives its code (the keys it
 * requires and allows, snake_case, plain values), or undefined when they match. `tableName`
 * names the table in the message, so an author knows where to look.
 */
export function detailsDrift(error: LibosError, table: DetailsTable, tableName: string): string | undefined {
  const details = error.details;
  const shape = table[error.code];
  if (details === undefined || typeof details !== 'object' || details === null) {
    return shape === undefined || shape.required.length === 0 ? undefined : `are missing (every ${error.code} carries ${shape.required.join(', ')})`;
  }
  const keys = Object.keys(details);
  for (const key of keys) {
    if (!snakeCase.test(key)) return `use the key ${JSON.stringify(key)}, which is not snake_case`;
    const value = details[key];
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) {
      return `hold a ${typeof value} under ${JSON.stringify(key)}, not a plain value`;
    }
  }
  if (shape === undefined) return undefined;
  const missing = shape.required.find((key) => !keys.includes(key));
  if (missing !== undefined) return `lack ${JSON.stringify(missing)}, which every ${error.code} carries`;
  const unknown = keys.find((key) => !shape.required.includes(key) && !shape.optional.includes(key));
  if (unknown !== undefined) return `hold ${JSON.stringify(unknown)}, which is not a ${error.code} key (see ${tableName})`;
  return undefined;
}
