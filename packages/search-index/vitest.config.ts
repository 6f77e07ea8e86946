import { libosProject } from '../../tooling/vitest/project.js';

export default libosProject('search-index');
