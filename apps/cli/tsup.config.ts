import type { Options } from 'tsup';
import { libraryConfig } from '../../tooling/tsup/library-config.js';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * zod's namespace (`z`) re-exports every translation of its error messages, 45 modules and 360 KB
 * of code that the bin would parse at every start and never use: libOS sets no locale, so zod
 * speaks English (its default). The bundle keeps `z.locales.en` only.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";',
      loader: 'js',
    }));
  },
};

/**
 * The SDK's Server imports its Ajv validator (Ajv, its formats and fast-uri: 280 KB of code) even
 * when given another, and Ajv only checks a client's answer to an elicitation. createMcpServer
 * gives it the SDK's CfWorker validator instead (55 KB), so the bundle replaces the Ajv module by
 * one that says so if anything ever constructs it.
 */
const sdkWithoutAjv: Plugin = {
  name: 'sdk-without-ajv',
  setup(build) {
    build.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]validation[\\/]ajv-provider\.js$/ }, () => ({
      contents:
        'export class AjvJsonSchemaValidator { constructor() { throw new Error("libos bundles no Ajv: give the SDK a jsonSchemaValidator (createMcpServer does)"); } }',
      loader: 'js',
    }));
  },
};

/**
 * SDK v2's Server takes its default validator from the package's Node shim, which bundles Ajv whole
 * (its ajvProvider module: 7,000 lines parsed at every start). Every libOS server gives SDK v2 the
 * CfWorker validator (createMcpServer, createModernServer), so the bundle's shim keeps `process`
 * and replaces the default by one that says so if anything ever constructs it.
 */
const sdkV2WithoutAjv: Plugin = {
  name: 'sdk-v2-without-ajv',
  setup(build) {
    build.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]shimsNode\.mjs$/ }, () => ({
      contents:
        'export { default as process } from "node:process"; export class DefaultJsonSchemaValidator { constructor() { throw new Error("libos bundles no Ajv: give the SDK a jsonSchemaValidator (createModernServer does)"); } }',
      loader: 'js',
    }));
  },
};

// main.ts is the bin (tsup keeps its shebang); only index.ts gets declarations.
// The bin bundles its dependencies (the MCP SDK, zod, memfs, the libOS packages): Node resolves and
// links hundreds of small ESM files otherwise, which measured ~80 ms of every `libos mcp` start.
// better-sqlite3 stays external (a native addon, loaded only on checkpoint or restore), so the app
// depends on it directly and the bundle's `require` resolves it from here. re2js is bundled too, but a
// search's regex worker thread loads its own copy by resolving it from here, so the app depends on it.
export default libraryConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  dts: { entry: 'src/index.ts', compilerOptions: { customConditions: [] } },
  // @libos/review stays external too: it serves its page's files from its own package folder.
  noExternal: [/^(?!better-sqlite3$|@libos\/review$)/],
  esbuildPlugins: [zodEnglishOnly, sdkWithoutAjv, sdkV2WithoutAjv],
  banner: {
    js: "import { createRequire as __libosCreateRequire } from 'node:module'; const require = __libosCreateRequire(import.meta.url);",
  },
});
