export { createLocalProvider } from './create-local-provider.js';
export type { LocalProviderOptions, LocalProviderTestingHooks, ResolveStep } from './local-provider-options.js';
