import { defineConfig, type Options } from 'tsup';

/** The build every package shares: ESM + .d.ts for Node 20; `extra` adds entries (a bin) or overrides. */
export function libraryConfig(extra: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    // Types resolve to dist, not to the "@libos/source" sources, so no package inlines another's types.
    dts: { compilerOptions: { customConditions: [] } },
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    ...extra,
  });
}
