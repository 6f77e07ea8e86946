import { defineProject } from 'vitest/config';

/** One vitest project per package; tests run on the sources through the "@libos/source" export condition. */
export function libosProject(name: string, overrides: { testTimeout?: number; globalSetup?: string[] } = {}) {
  return defineProject({
    resolve: { conditions: ['@libos/source'] },
    ssr: { resolve: { conditions: ['@libos/source'] } },
    test: {
      name,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      environment: 'node',
      testTimeout: overrides.testTimeout ?? 20_000,
      ...(overrides.globalSetup === undefined ? {} : { globalSetup: overrides.globalSetup }),
    },
  });
}
