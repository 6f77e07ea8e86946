import { libraryConfig } from '../../tooling/tsup/library-config.js';

// `backend` is a separate, light entry: the apps load it to find the provider by name. So is
// `export` (`exportWorkspace` works on any provider): `libos export` of a local or memfs workspace
// loads no PostgreSQL client.
export default libraryConfig({ entry: ['src/index.ts', 'src/backend.ts', 'src/export-workspace.ts'] });
