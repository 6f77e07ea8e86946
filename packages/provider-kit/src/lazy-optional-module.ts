import { createRequire } from 'node:module';
import { LibosError } from '@libos/core';

/** What a caller says when its optional module is missing. */
export interface MissingModuleRefusal {
  /** The sentence for the person: what needs the module and how to install it. */
  readonly message: string;
  /** `details.reason` of the `provider_failure`, for a caller that tells the cases apart. */
  readonly reason: string;
}

/**
 * A loader for an optional peer dependency (better-sqlite3, a native addon), run on first use only:
 * a program that merely can use the feature neither pays the load at start nor needs the module
 * installed. The module is resolved from `from`, the `import.meta.url` of the package that declares
 * the peer dependency, since that is where a package manager puts it. A missing module or one that
 * does not load is `provider_failure` (effect `none`, `details.reason` from `refusal`), every time.
 */
export function lazyOptionalModule<Module>(name: string, from: string, refusal: MissingModuleRefusal): () => Module {
  let loaded: Module | undefined;
  return () => {
    if (loaded === undefined) {
      try {
        loaded = createRequire(from)(name) as Module;
      } catch (error) {
        throw new LibosError('provider_failure', refusal.message, { effect: 'none', details: { reason: refusal.reason }, cause: error });
      }
    }
    return loaded;
  };
}
