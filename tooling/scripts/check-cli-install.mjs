// `npx -y @libos/cli mcp --root DIR` as on a machine with Node and npm and nothing else: an empty
// HOME, an empty user npm config (no `nodedir`, no registry settings of this machine's user), none of
// the caller's npm_config_* variables, and a PATH holding only node, npm, npx and sh, so no compiler,
// make or python can be found. The CLI must install without building anything (better-sqlite3 is an
// optional peer, loaded only by what needs it), answer an MCP session over stdio, run `libos call`,
// and say in one sentence what to do when a command that needs SQLite runs without it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function which(name) {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(directory, name);
    if (directory !== '' && existsSync(path)) return realpathSync(path);
  }
  throw new Error(`${name} is not on the PATH`);
}

/** A bare environment under `work`: its HOME, its npm user config and its PATH directory. */
function bareEnvironment(work) {
  const home = join(work, 'bare-home');
  const tools = join(work, 'bare-path');
  mkdirSync(home, { recursive: true });
  mkdirSync(tools, { recursive: true });
  const userconfig = join(home, 'empty-npmrc');
  writeFileSync(userconfig, '');
  for (const [name, target] of [
    ['node', process.execPath],
    ['npm', which('npm')],
    ['npx', which('npx')],
    ['sh', '/bin/sh'],
  ])
    symlinkSync(target, join(tools, name));
  for (const name of ['g++', 'c++', 'cc', 'gcc', 'make', 'python3', 'python'])
    if (existsSync(join(tools, name))) throw new Error(`the bare PATH holds ${name}`);
  return { HOME: home, PATH: tools, TMPDIR: work, npm_config_userconfig: userconfig, npm_config_update_notifier: 'false' };
}

function packagesWith(modules, test) {
  if (!existsSync(modules)) return [];
  return readdirSync(modules)
    .flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name]))
    .filter((name) => test(join(modules, name), name));
}

/**
 * Installs the CLI's tarballs with `npm exec` in the bare environment and runs it; returns the
 * failures found (empty when it all worked), and logs how long each step took.
 */
export function checkCliInstall({ work, cliTarballs, workspace }) {
  const failures = [];
  const env = bareEnvironment(work);
  const empty = join(work, 'bare-cwd');
  mkdirSync(empty, { recursive: true });
  const libos = (args, input = '') =>
    spawnSync('npm', ['exec', '--yes', ...cliTarballs.map((path) => `--package=${path}`), '--', 'libos', ...args], {
      cwd: empty,
      env,
      input,
      encoding: 'utf8',
      timeout: 300_000,
    });

  let started = Date.now();
  const session = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'check', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'README.md' } } },
  ];
  const served = libos(['mcp', '--root', workspace], `${session.map((message) => JSON.stringify(message)).join('\n')}\n`);
  const replies = new Map(
    served.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .map((reply) => [reply.id, reply]),
  );
  const listed = (replies.get(2)?.result?.tools ?? []).map((tool) => tool.name);
  if (served.status !== 0 || replies.get(1)?.result?.serverInfo === undefined || !listed.includes('read_text_file')) {
    failures.push(`npx @libos/cli mcp in a bare environment exited ${served.status}, tools ${listed.join(',')}:\n${served.stdout}\n${served.stderr}`);
  } else if (!JSON.stringify(replies.get(3)).includes('hello from the workspace')) {
    failures.push(`npx @libos/cli mcp in a bare environment did not answer the read:\n${served.stdout}`);
  }
  console.log(
    `bare environment: npx @libos/cli mcp installed, listed ${listed.length} tools and read a file in ${Math.round((Date.now() - started) / 1000)} s`,
  );

  const npxInstalls = join(env.HOME, '.npm', '_npx');
  const installed = existsSync(npxInstalls) ? readdirSync(npxInstalls).map((hash) => join(npxInstalls, hash, 'node_modules')) : [];
  for (const modules of installed) {
    // A native addon ships a binding.gyp; better-sqlite3 is an optional peer, never installed with the CLI.
    const native = packagesWith(modules, (path, name) => existsSync(join(path, 'binding.gyp')) || name === 'better-sqlite3');
    if (native.length > 0) failures.push(`installing the CLI pulled native addons: ${native.join(', ')}`);
  }
  if (installed.length === 0) failures.push(`no npx install found under ${npxInstalls}`);

  started = Date.now();
  const called = libos(['call', 'read_text_file', JSON.stringify({ path: 'README.md' }), '--root', workspace]);
  if (called.status !== 0 || !called.stdout.includes('hello from the workspace')) {
    failures.push(`libos call read_text_file in a bare environment exited ${called.status}:\n${called.stdout}\n${called.stderr}`);
  }
  console.log(`bare environment: libos call read_text_file answered in ${Math.round((Date.now() - started) / 1000)} s`);

  // What needs SQLite says so in one sentence, naming the package to install, with no stack trace.
  // The state exists (a person's command never creates one), so it is SQLite that is missing.
  writeFileSync(join(work, 'review.overlay'), '', { mode: 0o600 });
  const overlay = libos(['changes', '--root', workspace, '--overlay', join(work, 'review.overlay')]);
  const sentence = overlay.stderr.trim();
  if (overlay.status === 0 || !sentence.includes('npm i better-sqlite3') || sentence.includes('\n') || /\bat .+:\d+:\d+/.test(sentence)) {
    failures.push(`libos changes --overlay without better-sqlite3 exited ${overlay.status} with:\n${overlay.stderr}`);
  }
  return failures;
}
