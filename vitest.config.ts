import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'packages/ai-sdk/vitest.ai7.config.ts', 'apps/*', 'tooling'],
    reporters: ['default', './tooling/vitest/summary-reporter.ts'],
    // vitest's default is one worker fewer than the cores: on the 2-core machine the README names,
    // one file at a time. Most of the slow files wait (on children they fork, the built CLI, the
    // PostgreSQL cluster), so two files side by side fill that wait; on more cores this is the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
