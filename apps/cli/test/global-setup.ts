import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../../', import.meta.url));

// JavaScript only: the spawned binary needs no declarations, and a d.ts build costs ~20 s a package
// on a busy machine. Keeping old files (no clean) leaves any declarations in place for tsc users.
const BUILD_JS = "import { build } from 'tsup'; await build({ dts: false, clean: false, silent: true });";

// Build order: a package's declarations need those of the packages it imports.
const STAGES: readonly (readonly { directory: string; output: string }[])[] = [
  [{ directory: 'packages/core', output: 'dist/index.js' }],
  [
    { directory: 'packages/provider-memfs', output: 'dist/index.js' },
    { directory: 'packages/provider-local', output: 'dist/index.js' },
    { directory: 'packages/object-memory', output: 'dist/index.js' },
    { directory: 'packages/audit', output: 'dist/index.js' },
    { directory: 'packages/provider-overlay', output: 'dist/index.js' },
    { directory: 'packages/provider-postgres', output: 'dist/index.js' },
  ],
  [{ directory: 'packages/review', output: 'dist/index.js' }],
  [
    { directory: 'packages/tools', output: 'dist/index.js' },
    { directory: 'packages/object-store-postgres', output: 'dist/index.js' },
  ],
  [{ directory: 'packages/mcp', output: 'dist/index.js' }],
  [{ directory: 'apps/cli', output: 'dist/main.js' }],
];

async function newestSource(directory: string): Promise<number> {
  const files = ['package.json', 'tsup.config.ts'].map((name) => join(directory, name));
  for (const entry of await readdir(join(directory, 'src'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
  }
  const times = await Promise.all(files.map(async (file) => (await stat(file).catch(() => undefined))?.mtimeMs ?? 0));
  return Math.max(...times);
}

async function isStale(directory: string, output: string, newestDependency: number): Promise<boolean> {
  const built = await stat(join(directory, output)).catch(() => undefined);
  return built === undefined || built.mtimeMs < Math.max(newestDependency, await newestSource(directory));
}

/** Builds (tsup, JavaScript only) every package the spawned `libos` binary loads whose dist is missing or older than its sources. */
export default async function setup(): Promise<void> {
  // The bin bundles the libOS packages (apps/cli/tsup.config.ts), so a package is also stale when a
  // package of an earlier stage was built after it: a merge that changes tools must rebuild the bin.
  let newestDependency = 0;
  for (const stage of STAGES) {
    await Promise.all(
      stage.map(async ({ directory, output }) => {
        const absolute = join(repository, directory);
        if (!(await isStale(absolute, output, newestDependency))) return;
        await run(process.execPath, ['--input-type=module', '-e', BUILD_JS], {
          cwd: absolute,
          env: { ...process.env, NO_COLOR: '1' },
          maxBuffer: 16 * 1024 * 1024,
        }).catch((error: { stdout?: string; stderr?: string }) => {
          throw new Error(`tsup failed in ${directory}:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
        });
      }),
    );
    for (const { directory, output } of stage) {
      newestDependency = Math.max(newestDependency, (await stat(join(repository, directory, output)).catch(() => undefined))?.mtimeMs ?? 0);
    }
  }
}
