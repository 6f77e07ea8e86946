import { libraryConfig } from '../../tooling/tsup/library-config.js';

// `testing` is a separate entry so the fixtures never ship inside the provider's main entry.
export default libraryConfig({ entry: ['src/index.ts', 'src/testing.ts', 'src/backend.ts'] });
