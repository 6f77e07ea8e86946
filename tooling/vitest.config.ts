import { libosProject } from './vitest/project.js';

export default libosProject('tooling');
