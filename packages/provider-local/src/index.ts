export { createLocalProvider } from './create-local-provider.js';
export type { LocalProviderOptions } from './local-provider-options.js';
export { searchThreadStats, setSearchThreads } from './search-threads.js';
