export type { ConnectionGuard, ConnectionGuardOptions } from './guard-connections.js';
export { guardConnections } from './guard-connections.js';
export { defaultMaxConnections } from './default-max-connections.js';
