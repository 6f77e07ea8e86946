#!/usr/bin/env node
// Checks every published package as it would be published: `pnpm pack` (which rewrites workspace:
// and catalog: specifiers), then no such specifier left, publint --strict and are-the-types-wrong
// (ESM-only profile: these packages ship ESM and types, no CommonJS). With --install it also
// installs the tarballs with plain npm into a fresh project outside the repository and runs the
// README's library example and the AI SDK adapter example there. Needs a build (`pnpm build`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repository = fileURLToPath(new URL('../..', import.meta.url));
const install = process.argv.includes('--install');
const bin = (name) => join(repository, 'node_modules', '.bin', name);
const run = (command, args, options = {}) => execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });

const published = ['packages', 'apps']
  .flatMap((area) => readdirSync(join(repository, area)).map((name) => join(repository, area, name)))
  .filter((directory) => {
    try {
      return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')).private !== true;
    } catch {
      return false;
    }
  });

const work = mkdtempSync(join(tmpdir(), 'libos-packages-'));
const failures = [];
const tarballs = new Map();
try {
  for (const directory of published) {
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
    const begun = Date.now();
    const before = new Set(readdirSync(work));
    run('pnpm', ['pack', '--pack-destination', work], { cwd: directory });
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz') && !before.has(file));
    if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for ${manifest.name}`);
    const path = join(work, tarball);
    tarballs.set(manifest.name, path);
    const packed = run('tar', ['-xzOf', path, 'package/package.json']);
    const leftovers = packed.match(/"(workspace|catalog):[^"]*"/g);
    if (leftovers) failures.push(`${manifest.name}: the packed package.json still says ${leftovers.join(', ')}`);
    for (const [tool, args] of [
      ['publint', ['run', path, '--strict']],
      ['attw', [path, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji', '--no-color']],
    ]) {
      try {
        run(bin(tool), args);
      } catch (error) {
        failures.push(`${manifest.name}: ${tool} failed\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      }
    }
    console.log(
      `${manifest.name} (${Math.round((Date.now() - begun) / 1000)} s): packed, publint and attw ${failures.some((line) => line.startsWith(`${manifest.name}:`)) ? 'FAILED' : 'clean'}`,
    );
  }
  if (install && failures.length === 0) {
    try {
      installAndRun();
    } catch (error) {
      failures.push(`the fresh npm project failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}

function installAndRun() {
  const project = join(work, 'consumer');
  run('mkdir', ['-p', join(project, 'workspace')]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(project, 'workspace', 'README.md'), '# hello from the workspace\n');
  const versions = JSON.parse(readFileSync(join(repository, 'packages/ai-sdk/package.json'), 'utf8')).peerDependencies;
  const wanted = ['@libos/core', '@libos/object-memory', '@libos/tools', '@libos/provider-local', '@libos/provider-memfs', '@libos/ai-sdk'];
  const started = Date.now();
  // --ignore-scripts: better-sqlite3 (Object Memory checkpoints, loaded only when one is written)
  // would compile from source here for minutes; the examples never checkpoint, and its build is
  // tested where the repository installs it.
  const specs = [...wanted.map((name) => tarballs.get(name)), ...Object.entries(versions).map(([name, version]) => `${name}@${version}`)];
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', ...specs], { cwd: project });
  console.log(`fresh npm project: installed the tarballs in ${Math.round((Date.now() - started) / 1000)} s`);
  const library = extractExample(readFileSync(join(repository, 'README.md'), 'utf8'), '## Library use');
  writeFileSync(join(project, 'library.mjs'), library);
  const output = run('node', ['library.mjs', 'workspace'], { cwd: project });
  if (!output.includes('# hello from the workspace')) failures.push(`the README library example printed:\n${output}`);
  const missing = spawnFailure(project, ['library.mjs', 'no-such-root']);
  if (missing.status !== 1 || /\n\s+at /.test(missing.stderr) || !missing.stderr.includes('workspace root')) {
    failures.push(`the README library example on a missing root exited ${missing.status} with:\n${missing.stderr}`);
  }
  writeFileSync(join(project, 'adapter.mjs'), readFileSync(join(repository, 'packages/ai-sdk/examples/example.mjs'), 'utf8'));
  const adapter = run('node', ['adapter.mjs'], { cwd: project });
  if (!adapter.includes('read_text_file failed -> {"code":"not_found"') || !adapter.includes('All done.')) {
    failures.push(`the AI SDK example printed:\n${adapter}`);
  }
  console.log('fresh npm project: the library example and the AI SDK example ran from the packed tarballs');
}

function spawnFailure(cwd, args) {
  try {
    run('node', args, { cwd });
    return { status: 0, stderr: '' };
  } catch (error) {
    return { status: error.status, stderr: String(error.stderr) };
  }
}

// The first ```ts block after a heading, as a user would paste it into a .mjs file (it is plain JS).
function extractExample(markdown, heading) {
  const section = markdown.slice(markdown.indexOf(heading));
  const match = section.match(/```ts\n([\s\S]*?)```/);
  if (!match) throw new Error(`no example under ${heading}`);
  return match[1];
}
