import { libraryConfig } from '../../tooling/tsup/library-config.js';

// main.ts is the bin (tsup keeps its shebang); only index.ts gets declarations.
export default libraryConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  dts: { entry: 'src/index.ts', compilerOptions: { customConditions: [] } },
});
