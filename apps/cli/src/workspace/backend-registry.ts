import type { Backend, ObjectStoreBackend, ProviderBackend } from '@libos/core';
import { BACKENDS } from './backends.js';

/** Backends found by name or URL scheme. */
export interface BackendRegistry {
  /** In table order; the first is the default `--provider`. */
  readonly providers: readonly ProviderBackend[];
  readonly objectStores: readonly ObjectStoreBackend[];
  provider(name: string): ProviderBackend | undefined;
  /** The store whose URL scheme starts `value`, or undefined: then `value` is a file. */
  objectStoreFor(value: string): ObjectStoreBackend | undefined;
}

/** A registry over these backends; provider names and store schemes must be unique. */
export function registryOf(backends: readonly Backend[]): BackendRegistry {
  const providers = backends.filter((backend): backend is ProviderBackend => backend.kind === 'provider');
  const objectStores = backends.filter((backend): backend is ObjectStoreBackend => backend.kind === 'object-store');
  const names = new Set<string>();
  for (const backend of providers) {
    if (!/^[a-z][a-z0-9-]*$/u.test(backend.name))
      throw new Error(`backend name ${JSON.stringify(backend.name)}: use lowercase letters, digits and dashes`);
    if (names.has(backend.name)) throw new Error(`two provider backends are named ${backend.name}`);
    names.add(backend.name);
  }
  const schemes = new Map<string, ObjectStoreBackend>();
  for (const store of objectStores) {
    for (const scheme of store.schemes) {
      if (schemes.has(scheme)) throw new Error(`two Object store backends open ${scheme} URLs`);
      schemes.set(scheme, store);
    }
  }
  return {
    providers,
    objectStores,
    provider: (name) => providers.find((backend) => backend.name === name),
    objectStoreFor(value) {
      const scheme = /^([a-z][a-z0-9+.-]*:)\/\//iu.exec(value)?.[1]?.toLowerCase();
      return scheme === undefined ? undefined : schemes.get(scheme);
    },
  };
}

/** The CLI's own backends (`backends.ts`). */
export const BACKEND_REGISTRY: BackendRegistry = registryOf(BACKENDS);

/** Every backend's own flags, for `parseArgs`: a flag two backends share (`--seed`) is one entry. */
export function backendFlags(registry: BackendRegistry): Readonly<Record<string, { readonly type: 'string' }>> {
  const flags: Record<string, { readonly type: 'string' }> = {};
  for (const backend of registry.providers) for (const name of Object.keys(backend.flags)) flags[name] = { type: 'string' };
  return flags;
}
