import { libosProject } from '../../tooling/vitest/project.js';

export default libosProject('provider-overlay', { testTimeout: 60_000 });
