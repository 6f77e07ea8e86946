import { mergeConfig } from 'vitest/config';
import { libosProject } from '../../tooling/vitest/project.js';

// The end-to-end tests spawn the built binary, so the global setup builds what it needs first.
export default mergeConfig(libosProject('cli', { testTimeout: 30_000 }), {
  test: { globalSetup: ['./test/global-setup.ts'] },
});
