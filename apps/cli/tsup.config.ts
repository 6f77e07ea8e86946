import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts', compilerOptions: { customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});
