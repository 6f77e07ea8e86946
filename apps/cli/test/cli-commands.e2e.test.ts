import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '@libos/tools';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';

let workspace: Awaited<ReturnType<typeof temporaryDirectory>>;
let outside: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  workspace = await temporaryDirectory();
  outside = await temporaryDirectory();
  await writeFile(join(workspace.path, 'hello.txt'), 'hello\n');
  await writeFile(join(workspace.path, 'garbage.db'), 'not a checkpoint');
});
afterAll(async () => {
  await workspace?.remove();
  await outside?.remove();
});

describe('libos call', () => {
  it('prints {"ok": true, "result"} and exits 0', async () => {
    const run = await runLibos(['call', 'read_text_file', '{"path": "hello.txt"}', '--root', workspace.path]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, result: { path: 'hello.txt', content: 'hello\n' } });
  });

  it('runs in the current directory by default and takes {} as default arguments', async () => {
    const run = await runLibos(['call', 'get_working_directory'], { cwd: workspace.path });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ ok: true, result: { working_directory: '.' } });
  });

  it('prints {"ok": false, "error"} and exits 1 on a tool failure', async () => {
    const run = await runLibos(['call', 'read_text_file', '{"path": "nope.txt"}', '--root', workspace.path]);
    expect(run.status).toBe(1);
    const printed = JSON.parse(run.stdout) as { ok: boolean; error: Record<string, unknown> };
    expect(printed.ok).toBe(false);
    expect(printed.error).toMatchObject({ code: 'not_found', effect: 'none', message: expect.any(String), details: expect.anything() });
  });

  it('writes through to disk', async () => {
    const run = await runLibos(['call', 'write_text_file', '{"path": "out/new.txt", "content": "made by call"}', '--root', workspace.path]);
    expect(run.status).toBe(0);
    expect(await readFile(join(workspace.path, 'out/new.txt'), 'utf8')).toBe('made by call');
  });

  it('keeps Objects of a shared namespace between calls with --objects', async () => {
    const configFile = join(workspace.path, 'shared.json');
    await writeFile(configFile, JSON.stringify({ namespaces: [{ name: 'shared', rights: ['read', 'write'] }] }));
    const options = ['--root', workspace.path, '--config', configFile, '--objects', join(outside.path, 'objects.db')];
    const create = await runLibos(['call', 'create_object_from_file', '{"name": "hi", "namespace": "shared", "path": "hello.txt"}', ...options]);
    expect(create.status, create.stdout).toBe(0);
    const exported = await runLibos(['call', 'write_object_to_file', '{"name": "hi", "namespace": "shared", "path": "hi-copy.txt"}', ...options]);
    expect(exported.status, exported.stdout).toBe(0);
    expect(await readFile(join(workspace.path, 'hi-copy.txt'), 'utf8')).toBe('hello\n');
  });

  it('exits 2 with one line for malformed ARGS_JSON or a missing TOOL', async () => {
    for (const args of [['call', 'read_text_file', '{oops'], ['call']]) {
      const run = await runLibos(args, { cwd: workspace.path });
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stdout).toBe('');
    }
  });
});

describe('--objects inside a served directory', () => {
  it('is refused at start, exit 2 and one line, however the path reaches the root', async () => {
    const configFile = join(outside.path, 'shared.json');
    await writeFile(configFile, JSON.stringify({ namespaces: [{ name: 'shared', rights: ['read', 'write'] }] }));
    await mkdir(join(workspace.path, 'deep'), { recursive: true });
    await symlink(workspace.path, join(outside.path, 'link-to-root'));
    await symlink(outside.path, join(workspace.path, 'link-out'));
    const inside = [
      join(workspace.path, 'objects.db'),
      join(workspace.path, 'deep', 'objects.db'), // not there yet
      join(outside.path, 'link-to-root', 'objects.db'), // a link to the root
      join(workspace.path, 'garbage.db'), // an existing file
    ];
    for (const checkpoint of inside) {
      for (const command of [['call', 'get_working_directory'], ['shell']]) {
        const run = await runLibos([...command, '--root', workspace.path, '--config', configFile, '--objects', checkpoint], { input: '' });
        expect(run.status, checkpoint).toBe(2);
        expect(run.stderr.trim().split('\n'), checkpoint).toHaveLength(1);
        expect(run.stderr, checkpoint).toMatch(/--objects .*inside the served directory/);
        expect(run.stdout).toBe('');
      }
    }
    // The memfs seed is copied into the served volume, so it counts as served too.
    const seeded = await runLibos(['call', 'get_working_directory', '--provider', 'memfs', '--seed', workspace.path, '--objects', inside[0]!]);
    expect(seeded.status).toBe(2);
    // Through a link out of the root, the file really is outside: accepted.
    const linkedOut = await runLibos([
      'call',
      'get_working_directory',
      '--root',
      workspace.path,
      '--config',
      configFile,
      '--objects',
      join(workspace.path, 'link-out', 'ok.db'),
    ]);
    expect(linkedOut.status, linkedOut.stderr).toBe(0);
  });
});

describe('flags and config', () => {
  it('exits 2 with one line on stderr for a bad flag, value or start-up input', async () => {
    const cases = [
      ['mcp', '--bogus'],
      ['call', 'get_working_directory', '--root'],
      ['shell', '--provider', 'cloud'],
      ['tools', '--format', 'yaml'],
      ['mcp', '--provider', 'local', '--seed', '.'],
      ['mcp', '--root', '/definitely/not/here'],
      ['mcp', 'extra-positional'],
      ['call', 'get_working_directory', '--objects', 'garbage.db'],
      ['nonsense'],
      ['--bogus'],
    ];
    const runs = await Promise.all(cases.map((args) => runLibos(args, { cwd: workspace.path })));
    runs.forEach((run, index) => {
      const label = cases[index]!.join(' ');
      expect(run.status, label).toBe(2);
      expect(run.stderr.trim().split('\n'), label).toHaveLength(1);
      expect(run.stdout, label).toBe('');
    });
  });

  it('refuses a malformed config with one line naming the bad field, exit 2', async () => {
    const configFile = join(workspace.path, 'bad.json');
    await writeFile(configFile, JSON.stringify({ grants: [{ path: '.', rights: ['read'], uses: 0 }] }));
    const commands = [['mcp'], ['call', 'get_working_directory'], ['shell'], ['tools']];
    const runs = await Promise.all(commands.map((command) => runLibos([...command, '--config', configFile], { cwd: workspace.path })));
    runs.forEach((run, index) => {
      expect(run.status, commands[index]![0]).toBe(2);
      expect(run.stderr.trim().split('\n'), commands[index]![0]).toHaveLength(1);
      expect(run.stderr).toContain('config.grants[0].uses');
    });
  });

  it('refuses a config that is not JSON or does not exist', async () => {
    const notJson = join(workspace.path, 'not-json.json');
    await writeFile(notJson, '{ grants: ');
    const files = [notJson, join(workspace.path, 'absent.json')];
    const runs = await Promise.all(files.map((file) => runLibos(['call', 'get_working_directory', '--config', file], { cwd: workspace.path })));
    for (const run of runs) {
      expect(run.status).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('prints help and exits 0 for every command', async () => {
    const cases = [['--help'], ['mcp', '--help'], ['call', '-h'], ['tools', '--help'], ['shell', '--help'], ['demo', '--help']];
    const runs = await Promise.all(cases.map((args) => runLibos(args)));
    runs.forEach((run, index) => {
      expect(run.status, cases[index]!.join(' ')).toBe(0);
      expect(run.stdout, cases[index]!.join(' ')).toMatch(/Usage: libos/u);
    });
  });

  it('exits 2 (usage) with the help on stderr when no command is given', async () => {
    // Issue 9: it used to exit 0, so a script that lost its command passed.
    const run = await runLibos([]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/Usage: libos/u);
  });
});

describe('libos tools', () => {
  it('prints every tool in each ecosystem shape', async () => {
    const mcp = JSON.parse((await runLibos(['tools'])).stdout) as { tools: { name: string; inputSchema: unknown; annotations: unknown }[] };
    expect(mcp.tools).toHaveLength(BUILTIN_TOOLS.length);
    expect(mcp.tools[0]).toMatchObject({ inputSchema: { type: 'object' }, annotations: { openWorldHint: false } });

    const openai = JSON.parse((await runLibos(['tools', '--format', 'openai'])).stdout) as unknown[];
    expect(openai).toHaveLength(BUILTIN_TOOLS.length);
    expect(openai[0]).toEqual({
      type: 'function',
      function: { name: expect.any(String), description: expect.any(String), parameters: expect.objectContaining({ type: 'object' }) },
    });

    const anthropic = JSON.parse((await runLibos(['tools', '-f', 'anthropic'])).stdout) as Record<string, unknown>[];
    expect(Object.keys(anthropic[0]!).sort()).toEqual(['description', 'input_schema', 'name']);
    expect(anthropic[0]!['input_schema']).not.toHaveProperty('$schema');

    const plain = JSON.parse((await runLibos(['tools', '--format', 'json-schema'])).stdout) as Record<string, { input: unknown; output: unknown }>;
    expect(plain['read_text_file']).toMatchObject({ input: { type: 'object' }, output: { type: 'object' } });
  });

  it('uses the bounds of --config in the schemas', async () => {
    const configFile = join(workspace.path, 'bounds.json');
    await writeFile(configFile, JSON.stringify({ bounds: { read_max_bytes_limit: 4096, read_max_bytes_default: 1024 } }));
    const plain = JSON.parse((await runLibos(['tools', '--format', 'json-schema', '--config', configFile])).stdout) as Record<
      string,
      { input: { properties: Record<string, { maximum?: number }> } }
    >;
    expect(plain['read_text_file']!.input.properties['max_bytes']!.maximum).toBe(4096);
  });
});
