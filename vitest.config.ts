import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'packages/ai-sdk/vitest.ai7.config.ts', 'apps/*', 'tooling'],
    reporters: ['default', './tooling/vitest/summary-reporter.ts'],
  },
});
