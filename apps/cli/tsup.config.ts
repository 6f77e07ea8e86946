import { libraryConfig } from '../../tooling/tsup/library-config.js';

// main.ts is the bin (tsup keeps its shebang); only index.ts gets declarations.
// The bin bundles its dependencies (the MCP SDK, zod, memfs, the libOS packages): Node resolves and
// links hundreds of small ESM files otherwise, which measured ~80 ms of every `libos mcp` start.
// better-sqlite3 stays external (a native addon, loaded only on checkpoint or restore), so the app
// depends on it directly and the bundle's `require` resolves it from here.
export default libraryConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  dts: { entry: 'src/index.ts', compilerOptions: { customConditions: [] } },
  noExternal: [/^(?!better-sqlite3$)/],
  banner: {
    js: "import { createRequire as __libosCreateRequire } from 'node:module'; const require = __libosCreateRequire(import.meta.url);",
  },
});
