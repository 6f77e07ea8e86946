import type { FileSystemProviderV1 } from '@libos/core';
import { PROVIDER_METHODS, type ProviderMethodName } from './provider-methods.js';

type Method<Name extends ProviderMethodName> = NonNullable<FileSystemProviderV1[Name]>;

/**
 * What a wrapper does around some provider methods: each entry gets the wrapped provider's own
 * method (`next`, already bound to it) and the call's arguments, and returns what the call returns.
 * A method without an entry is forwarded unchanged.
 */
export type ProviderMiddleware = {
  readonly [Name in ProviderMethodName]?: (next: Method<Name>, ...args: Parameters<Method<Name>>) => ReturnType<Method<Name>>;
};

/**
 * A provider that serves every call through `middleware`, then `provider`. It has exactly the
 * methods `provider` has (an optional method it lacks stays absent, so a tool still sees what the
 * provider cannot do) and the same name, capabilities and quota. The method list is checked by the
 * compiler against the interface (`PROVIDER_METHODS`), so no wrapper built here can drop a method.
 */
export function wrapProvider(provider: FileSystemProviderV1, middleware: ProviderMiddleware): FileSystemProviderV1 {
  const wrapped: Record<string, unknown> = {
    specificationVersion: provider.specificationVersion,
    name: provider.name,
    capabilities: provider.capabilities,
  };
  if (provider.workspaceMaxBytes !== undefined) wrapped.workspaceMaxBytes = provider.workspaceMaxBytes;
  for (const name of PROVIDER_METHODS) {
    const own = provider[name] as ((...args: unknown[]) => unknown) | undefined;
    if (own === undefined) continue;
    // A provider may be a class instance with private fields: its methods keep it as `this`.
    const next = own.bind(provider);
    const around = middleware[name] as ((next: unknown, ...args: unknown[]) => unknown) | undefined;
    wrapped[name] = around === undefined ? next : (...args: unknown[]) => around(next, ...args);
  }
  return wrapped as unknown as FileSystemProviderV1;
}
