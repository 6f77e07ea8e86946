import pg from 'pg';
import { postgresTestHelpers } from '../../../tooling/postgres/test-database.js';

export { describePostgres, postgresUrl } from '../../../tooling/postgres/test-database.js';

/** `uniqueSchema()`, `dropSchema(name)`, `freshSchema()` (dropped when the test ends) and `testPool(max)`. */
export const { uniqueSchema, dropSchema, freshSchema, testPool } = postgresTestHelpers(pg, 'libos_state_test_');
