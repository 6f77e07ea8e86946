import type { FileSystemProviderV1 } from '@libos/core';
import { openLocalProvider } from './create-local-provider.js';
import type { LocalProviderOptions, LocalProviderTestingHooks } from './local-provider-options.js';

export type { LocalProviderTestingHooks, ResolveStep } from './local-provider-options.js';

/** A local provider with testing hooks (a callback between resolution steps, a stand-in `/proc/self/fd`); for tests only. */
export function createLocalProviderWithHooks(options: LocalProviderOptions, hooks: LocalProviderTestingHooks): FileSystemProviderV1 {
  return openLocalProvider(options, hooks);
}
