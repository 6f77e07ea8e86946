import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));
const built = existsSync(new URL('../dist/index.js', import.meta.url));

// The example imports the package by name, so it runs on the build (pnpm install builds; so does CI).
it.skipIf(!built)('the README example runs: a write, a failure the model sees as one, a read', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['examples/example.mjs'], { cwd: packageDirectory, timeout: 60_000 });
  expect(stdout).toContain('write_text_file');
  expect(stdout).toContain('read_text_file -> {"error":{"code":"not_found"');
  expect(stdout).toContain('"content":"hello from the agent\\n"');
  expect(stdout.trimEnd().endsWith('All done.')).toBe(true);
});
