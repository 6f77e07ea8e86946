import { libosProject } from '../../tooling/vitest/project.js';

export default libosProject('state-postgres', { globalSetup: ['../../tooling/postgres/global-setup.ts'], testTimeout: 60_000 });
