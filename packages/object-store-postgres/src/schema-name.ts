export { quoteSchema } from '@libos/provider-kit';

/** The schema the store keeps its tables in when none is given. */
export const DEFAULT_SCHEMA = 'libos';
