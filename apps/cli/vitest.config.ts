import { mergeConfig } from 'vitest/config';
import { libosProject } from '../../tooling/vitest/project.js';

// The end-to-end tests spawn the built binary, so the global setup builds what it needs first;
// the second gives the `--objects postgres://` tests a PostgreSQL (see tooling/postgres).
export default mergeConfig(libosProject('cli', { testTimeout: 30_000 }), {
  test: { globalSetup: ['./test/global-setup.ts', '../../tooling/postgres/global-setup.ts'] },
});
