import { libraryConfig } from '../../tooling/tsup/library-config.js';

// `example` is the README's walk-through provider, importable as `@libos/provider-conformance/example`.
export default libraryConfig({ entry: ['src/index.ts', 'src/example.ts'] });
