import { libosProject } from '../../tooling/vitest/project.js';

export default libosProject('mcp', { testTimeout: 30_000 });
