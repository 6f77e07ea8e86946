export { createLocalProvider } from './create-local-provider.js';
export type { LocalProviderOptions } from './local-provider-options.js';
