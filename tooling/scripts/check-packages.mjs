#!/usr/bin/env node
// Checks every published package as it would be published: `pnpm pack` (which rewrites workspace:
// and catalog: specifiers), then no such specifier left, publint --strict and are-the-types-wrong
// (ESM-only profile: these packages ship ESM and types, no CommonJS). With --install it also
// installs the tarballs as a user would (plain npm, install scripts on, none of the repository's
// build settings) into a fresh project outside the repository: nothing native may compile, the
// README's library example runs, each adapter's example runs with the lowest and the highest
// framework version its peer range allows, and `npx @libos/cli mcp --root DIR` installs and answers
// in a bare environment with no compiler and no npm config (check-cli-install.mjs). Needs a build (`pnpm build`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCliInstall } from './check-cli-install.mjs';

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
const manifests = new Map();
// The lowest and highest versions each adapter's peer range promises; both are installed and run.
const frameworkVersions = {
  '@libos/ai-sdk': { package: 'ai', versions: ['6.0.326', '7.0.185'], example: 'packages/ai-sdk/examples/example.mjs', expect: 'All done.' },
  '@libos/openai-agents': {
    package: '@openai/agents',
    versions: ['0.14.3', '0.20.0'],
    example: 'packages/openai-agents/examples/example.mjs',
    expect: 'All done.',
  },
  '@libos/langchain': {
    package: '@langchain/core',
    versions: ['1.4.0', '1.4.0'],
    example: 'packages/langchain/examples/example.mjs',
    expect: 'All done.',
    with: [['langchain@1.5.14'], ['langchain@1.5.14']],
  },
};

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
    manifests.set(manifest.name, manifest);
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

// A user's environment: none of the repository's build settings (npm_config_nodedir lets
// better-sqlite3 compile here), install scripts on. A native build would show as a `build/`
// directory of an addon (a package with a binding.gyp); none may appear.
function userEnvironment() {
  const environment = { ...process.env };
  for (const key of Object.keys(environment)) if (/^npm_config_/i.test(key) || key === 'NODE_OPTIONS') delete environment[key];
  return { ...environment, npm_config_cache: join(work, 'npm-cache'), npm_config_audit: 'false', npm_config_fund: 'false' };
}

function npm(args, cwd) {
  return run('npm', args, { cwd, env: userEnvironment() });
}

function nativeBuilds(project) {
  const modules = join(project, 'node_modules');
  const names = readdirSync(modules).flatMap((name) =>
    name.startsWith('@') ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name],
  );
  return names.filter((name) => {
    try {
      return readdirSync(join(modules, name)).includes('binding.gyp');
    } catch {
      return false;
    }
  });
}

function installAndRun() {
  const project = join(work, 'consumer');
  run('mkdir', ['-p', join(project, 'workspace')]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(project, 'workspace', 'README.md'), '# hello from the workspace\n');
  const wanted = [
    '@libos/core',
    '@libos/object-memory',
    '@libos/tools',
    '@libos/provider-local',
    '@libos/provider-memfs',
    ...Object.keys(frameworkVersions),
  ];
  // With their own libOS dependencies (the provider kit, ...), as the registry would resolve them.
  for (const name of wanted) {
    for (const dependency of Object.keys(manifests.get(name)?.dependencies ?? {})) {
      if (tarballs.has(dependency) && !wanted.includes(dependency)) wanted.push(dependency);
    }
  }
  const started = Date.now();
  const pinned = (bound) =>
    Object.values(frameworkVersions).flatMap((entry) => [`${entry.package}@${entry.versions[bound]}`, ...(entry.with?.[bound] ?? [])]);
  const lowest = pinned(0);
  npm(['install', ...wanted.map((name) => tarballs.get(name)), ...lowest], project);
  console.log(`fresh npm project: installed the library tarballs, scripts on, in ${Math.round((Date.now() - started) / 1000)} s`);
  const built = nativeBuilds(project);
  if (built.length > 0) failures.push(`installing @libos/tools, the providers and the adapters pulled native addons: ${built.join(', ')}`);
  const library = extractExample(readFileSync(join(repository, 'README.md'), 'utf8'), '## Library use');
  writeFileSync(join(project, 'library.mjs'), library);
  const output = run('node', ['library.mjs', 'workspace'], { cwd: project });
  if (!output.includes('# hello from the workspace')) failures.push(`the README library example printed:\n${output}`);
  const missing = spawnFailure(project, ['library.mjs', 'no-such-root']);
  if (missing.status !== 1 || /\n\s+at /.test(missing.stderr) || !missing.stderr.includes('workspace root')) {
    failures.push(`the README library example on a missing root exited ${missing.status} with:\n${missing.stderr}`);
  }
  for (const [index, bound] of ['lowest', 'highest'].entries()) {
    if (index === 1) npm(['install', ...pinned(1)], project);
    for (const [adapter, entry] of Object.entries(frameworkVersions)) {
      const file = `example${adapter.replace(/\W+/g, '-')}.mjs`;
      writeFileSync(join(project, file), readFileSync(join(repository, entry.example), 'utf8'));
      const result = spawnFailure(project, [file]);
      if (result.status !== 0 || !result.stdout.includes(entry.expect)) {
        failures.push(
          `${adapter} with ${entry.package}@${entry.versions[index]} (the ${bound} its range allows) failed:\n${result.stdout}${result.stderr}`,
        );
      }
    }
    console.log(`fresh npm project: the adapter examples ran with the ${bound} framework versions`);
  }

  // The MCP client line of the README, `npx @libos/cli mcp --root DIR`, in a bare environment (no
  // compiler, no npm config): npx installs the CLI (the packed tarballs stand in for the registry).
  // The CLI's own libOS packages and theirs, as the registry would resolve them.
  const needed = new Set(['@libos/cli']);
  for (const name of needed) {
    const manifest = manifests.get(name);
    for (const dependency of Object.keys(manifest?.dependencies ?? {})) if (tarballs.has(dependency)) needed.add(dependency);
  }
  const cliTarballs = [...needed].map((name) => tarballs.get(name));
  failures.push(...checkCliInstall({ work, cliTarballs, workspace: join(project, 'workspace') }));
}

function spawnFailure(cwd, args) {
  try {
    return { status: 0, stdout: run('node', args, { cwd }), stderr: '' };
  } catch (error) {
    return { status: error.status, stdout: String(error.stdout ?? ''), stderr: String(error.stderr) };
  }
}

// The first ```ts block after a heading, as a user would paste it into a .mjs file (it is plain JS).
function extractExample(markdown, heading) {
  const section = markdown.slice(markdown.indexOf(heading));
  const match = section.match(/```ts\n([\s\S]*?)```/);
  if (!match) throw new Error(`no example under ${heading}`);
  return match[1];
}
