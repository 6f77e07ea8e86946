import { LibosError } from '@libos/core';

// A plain lowercase identifier needs no case folding and quotes the same everywhere; anything else
// is refused rather than escaped, so a schema name can never smuggle SQL into a migration.
const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Checks a PostgreSQL schema name, as both PostgreSQL backends take it, and returns it
 * double-quoted for SQL. Throws `invalid_arguments`.
 */
export function quoteSchema(schema: string): string {
  if (!SCHEMA_PATTERN.test(schema) || schema.startsWith('pg_')) {
    throw new LibosError(
      'invalid_arguments',
      'The schema must be 1 to 63 lowercase letters, digits or underscores, start with a letter or underscore, and not start with "pg_".',
      { details: { schema } },
    );
  }
  return `"${schema}"`;
}
