import { libosProject } from '../../tooling/vitest/project.js';

export default libosProject('provider-mount', { testTimeout: 60_000 });
