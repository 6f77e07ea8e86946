import { mergeConfig } from 'vitest/config';
import { libosProject } from '../../tooling/vitest/project.js';

// The end-to-end tests spawn the built binary, so the global setup builds what it needs first;
// the second gives the `--objects postgres://` tests a PostgreSQL (see tooling/postgres).
// 60 s a test: each spawns the built CLI several times, and a loaded machine (vitest runs two files
// at a time on 2 cores) stretches every start; no test asserts how long it took.
export default mergeConfig(libosProject('cli', { testTimeout: 60_000 }), {
  test: { globalSetup: ['./test/global-setup.ts', '../../tooling/postgres/global-setup.ts'] },
});
