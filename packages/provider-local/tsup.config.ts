import { libraryConfig } from '../../tooling/tsup/library-config.js';

// `testing` is a separate entry so the testing hooks never ship inside the provider's main entry;
// `search-worker` is the code of a search thread, loaded by file (search-threads.ts).
export default libraryConfig({ entry: ['src/index.ts', 'src/testing.ts', 'src/backend.ts', 'src/search-worker.ts'] });
