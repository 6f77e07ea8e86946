import { libraryConfig } from '../../tooling/tsup/library-config.js';

// `backend` is a separate, light entry: the apps load it to find the provider by name.
export default libraryConfig({ entry: ['src/index.ts', 'src/backend.ts'] });
