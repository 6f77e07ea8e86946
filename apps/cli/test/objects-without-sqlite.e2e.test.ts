import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LibosRun, runLibos, temporaryDirectory } from './support/libos-binary.js';

// A preload that makes better-sqlite3 unresolvable, as on an install where it is missing or did not
// build: every require of it (the bundle resolves it with createRequire) fails as Node's own would.
const NO_SQLITE = `const Module = require('node:module');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'better-sqlite3') throw Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: 'MODULE_NOT_FOUND' });
  return resolveFilename.call(this, request, ...rest);
};
`;

const SENTENCE =
  /^libos: --objects \S+objects\.db: Checkpoints need the better-sqlite3 package, which is not installed \(or did not build\): add it beside @libos\/object-memory \(npm install better-sqlite3\)\.\n$/u;

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let preload: string;
let root: string;
let configFile: string;
beforeAll(async () => {
  scratch = await temporaryDirectory();
  preload = join(scratch.path, 'no-sqlite.cjs');
  await writeFile(preload, NO_SQLITE);
  root = join(scratch.path, 'root');
  await mkdir(root);
  await writeFile(join(root, 'hello.txt'), 'hello\n');
  configFile = join(scratch.path, 'shared.json');
  await writeFile(configFile, JSON.stringify({ namespaces: [{ name: 'shared', rights: ['read', 'write'] }] }));
});
afterAll(async () => {
  await scratch?.remove();
});

/** Runs `libos ARGS` without SQLite, feeding `input` on stdin. */
function runWithoutSqlite(args: readonly string[], input = ''): Promise<LibosRun> {
  return runLibos(args, { input, nodeArgs: ['--require', preload] });
}

describe('--objects FILE without better-sqlite3', () => {
  it('refuses a call at its start: nothing written, no checkpoint, one sentence, exit 2', async () => {
    const objects = join(scratch.path, 'call', 'objects.db');
    await mkdir(join(scratch.path, 'call'));
    const run = await runWithoutSqlite([
      'call',
      'write_text_file',
      '{"path": "landed.txt", "content": "x"}',
      '--root',
      root,
      '--config',
      configFile,
      '--objects',
      objects,
    ]);
    expect(run).toMatchObject({ status: 2, stdout: '' });
    expect(run.stderr).toMatch(SENTENCE);
    expect((await readdir(root)).sort()).toEqual(['hello.txt']);
    expect(await readdir(join(scratch.path, 'call'))).toEqual([]);
  });

  it('refuses libos mcp at its start: no initialize answer, no checkpoint, one sentence, exit 2', async () => {
    const objects = join(scratch.path, 'mcp', 'objects.db');
    await mkdir(join(scratch.path, 'mcp'));
    const initialize = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } })}\n`;
    const run = await runWithoutSqlite(['mcp', '--root', root, '--config', configFile, '--objects', objects], initialize);
    expect(run).toMatchObject({ status: 2, stdout: '' });
    expect(run.stderr).toMatch(SENTENCE);
    expect(await readdir(join(scratch.path, 'mcp'))).toEqual([]);
  });

  it('still serves without --objects: SQLite is loaded only for it', async () => {
    const run = await runWithoutSqlite(['call', 'read_text_file', '{"path": "hello.txt"}', '--root', root]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('hello');
  });
});
