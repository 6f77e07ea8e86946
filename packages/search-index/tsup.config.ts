import { libraryConfig } from '../../tooling/tsup/library-config.js';

export default libraryConfig();
