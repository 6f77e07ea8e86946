import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBOS_BIN, temporaryDirectory, type LibosRun } from './support/libos-binary.js';

// `libos export` opens its workspace through the backend table like every command, so a local or
// memfs workspace exports too; and only the chosen backend loads (a module hook records every file).
const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:')) appendFileSync(log, url + '\\n');
  return nextLoad(url, context);
}
`;

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let register: string;
let log: string;
let root: string;

beforeAll(async () => {
  scratch = await temporaryDirectory();
  log = join(scratch.path, 'loaded.txt');
  await writeFile(join(scratch.path, 'hooks.mjs'), HOOKS);
  register = join(scratch.path, 'register.mjs');
  await writeFile(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(scratch.path, 'hooks.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });\n`,
  );
  root = join(scratch.path, 'root');
  await mkdir(join(root, 'notes', 'deep'), { recursive: true });
  await writeFile(join(root, 'notes', 'a.txt'), 'hello\n', { mode: 0o600 });
  await writeFile(join(root, 'notes', 'deep', 'b.txt'), 'world!\n');
});
afterAll(async () => {
  await scratch?.remove();
});

/** `libos ARGS` under the module hook; what it printed, its status, and whether it loaded the pg client. */
async function exportWith(args: readonly string[]): Promise<LibosRun & { loadedPostgresClient: boolean }> {
  await writeFile(log, '');
  const run = await new Promise<LibosRun>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', register, LIBOS_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
  const files = [...new Set((await readFile(log, 'utf8')).split('\n').filter((url) => url !== ''))];
  // The bundle names each source it holds in a path comment: pg's own modules, or pg itself unbundled.
  const texts = await Promise.all(files.map((url) => readFile(new URL(url), 'utf8')));
  const loadedPostgresClient =
    files.some((url) => /[\\/]pg[\\/]lib[\\/]/u.test(url)) || texts.some((text) => /[\\/]pg[\\/]lib[\\/]client\.js/u.test(text));
  return { ...run, loadedPostgresClient };
}

async function treeOf(directory: string): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  for (const name of (await readdir(directory, { recursive: true })).sort()) {
    const full = join(directory, name);
    const status = await stat(full);
    tree[name] = status.isDirectory() ? 'directory' : `${(status.mode & 0o777).toString(8)} ${await readFile(full, 'utf8')}`;
  }
  return tree;
}

const expected = {
  notes: 'directory',
  'notes/a.txt': '600 hello\n',
  'notes/deep': 'directory',
  'notes/deep/b.txt': '644 world!\n',
};

describe('libos export on every backend', () => {
  it('exports a local workspace, printing the counts, and loads no PostgreSQL client', async () => {
    const target = join(scratch.path, 'from-local');
    const run = await exportWith(['export', '--provider', 'local', '--root', root, target]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ files: 2, directories: 2, bytes: 13 });
    expect(await treeOf(target)).toEqual(expected);
    expect(run.loadedPostgresClient).toBe(false);
  });

  it('exports a memfs workspace seeded from a directory, and loads no PostgreSQL client', async () => {
    const target = join(scratch.path, 'from-memfs');
    const run = await exportWith(['export', '--provider', 'memfs', '--seed', root, target]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ files: 2, directories: 2, bytes: 13 });
    expect(Object.keys(await treeOf(target))).toEqual(Object.keys(expected));
    expect(run.loadedPostgresClient).toBe(false);
  });

  it('refuses a target inside the local workspace it would copy, with status 2 and nothing written', async () => {
    const run = await exportWith(['export', '--provider', 'local', '--root', root, join(root, 'copy')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('lies inside the workspace it would copy');
    expect(await readdir(root)).toEqual(['notes']);
  });
});
