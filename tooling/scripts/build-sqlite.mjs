#!/usr/bin/env node
// better-sqlite3 for the repository's own tests and tools (checkpoints, audit, the overlay), built
// at `pnpm install` (the root `prepare`). pnpm does not run its install script itself
// (pnpm-workspace.yaml: `allowBuilds: better-sqlite3: false`) because pnpm prints every line of it:
// about ninety lines of node-gyp and compiler warnings on each clean install. This runs the same
// steps (a prebuilt binary when one can be fetched, else node-gyp from source against
// npm_config_nodedir's headers) and keeps their output, shown only when the build fails.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

const require = createRequire(new URL('../../packages/provider-overlay/package.json', import.meta.url));
const directory = dirname(require.resolve('better-sqlite3/package.json'));

function loads() {
  const probe = "const Database = require(process.argv[1]); new Database(':memory:').close();";
  return spawnSync(process.execPath, ['-e', probe, directory], { stdio: 'ignore' }).status === 0;
}

// pnpm hands its bundled node-gyp to lifecycle scripts; outside one, look beside pnpm, then on the PATH.
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    process.env.npm_execpath && join(dirname(process.env.npm_execpath), 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    process.env.npm_execpath && join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  const found = candidates.find((path) => path !== undefined && path !== '' && existsSync(path));
  return found === undefined ? 'node-gyp' : `"${process.execPath}" "${found}"`;
}

if (!loads()) {
  const started = Date.now();
  const bin = join(directory, 'node_modules', '.bin');
  const build = spawnSync('sh', ['-c', `prebuild-install || ${nodeGyp()} rebuild --release`], {
    cwd: directory,
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (build.status !== 0 || !loads()) {
    process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}\n`);
    process.stderr.write(
      'libos: better-sqlite3 (the SQLite the tests use) did not build, see above: install a C++ toolchain and Node headers (apt-get install build-essential python3), or set npm_config_nodedir to a Node source or headers directory, then run pnpm install again.\n',
    );
    process.exit(1);
  }
  process.stdout.write(`libos: built better-sqlite3 for the tests in ${Math.round((Date.now() - started) / 1000)} s\n`);
}
