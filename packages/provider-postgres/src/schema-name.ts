export { quoteSchema } from '@libos/core';

/** The schema the provider keeps its tables in when none is given. */
export const DEFAULT_SCHEMA = 'libos_fs';
