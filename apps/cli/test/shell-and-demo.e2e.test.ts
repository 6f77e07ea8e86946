import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBOS_BIN, runLibos, temporaryDirectory } from './support/libos-binary.js';

const clone = fileURLToPath(new URL('../../..', import.meta.url));

let workspace: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  workspace = await temporaryDirectory();
  await writeFile(join(workspace.path, 'hello.txt'), 'hello\n');
});
afterAll(async () => {
  await workspace?.remove();
});

describe('libos shell with piped input', () => {
  it('runs short commands in one process whose cwd persists', async () => {
    const script = [
      'mkdir notes/daily',
      'cd notes',
      'pwd',
      'write daily/today.md first line of today',
      'write "daily/two words.md" <<END',
      'line one',
      '  line two',
      'END',
      'cat daily/today.md',
      'ls daily',
      'cd',
      'pwd',
      'ls',
      'exit',
      'pwd',
    ].join('\n');
    const run = await runLibos(['shell', '--root', workspace.path], { input: script });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('notes');
    expect(run.stdout).toContain('created notes/daily/today.md (20 bytes)');
    expect(run.stdout).toContain('first line of today\n');
    expect(run.stdout).toMatch(/KIND\s+SIZE\s+MODIFIED \(UTC\)\s+NAME/u);
    expect(run.stdout).toMatch(/file\s+20\s+\S+ \S+\s+today\.md/u);
    expect(run.stdout).toContain('two words.md');
    expect(run.stdout).toMatch(/directory\s+-\s+\S+ \S+\s+notes\//u);
    expect(run.stdout).toContain('\n.\n');
    // `exit` stops the session: the final pwd never ran.
    expect(run.stdout.trimEnd().endsWith('entries')).toBe(true);
    expect(await readFile(join(workspace.path, 'notes/daily/two words.md'), 'utf8')).toBe('line one\n  line two\n');
  });

  it('explains failures in plain words and keeps going', async () => {
    const script = ['cat missing.txt', 'rmdir .', 'write .git/HEAD nope', 'frobnicate', 'cd hello.txt', 'pwd'].join('\n');
    const run = await runLibos(['shell', '--root', workspace.path], { input: script });
    // A script whose commands failed fails (issue 9): it ran to the end, and says so with status 1.
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^cat: .+ \[not_found\]$/mu);
    expect(run.stdout).toMatch(/^rmdir: .+ \[root_refused\]$/mu);
    expect(run.stdout).toMatch(/^write: .+ \[protected_path\]$/mu);
    expect(run.stdout).toContain('frobnicate: unknown command');
    expect(run.stdout).toMatch(/^cd: .+ \[not_a_directory\]$/mu);
    expect(run.stdout.trimEnd().endsWith('\n.')).toBe(true);
  });

  it('makes raw tool calls with or without `call`', async () => {
    const script = [
      'call read_text_file {"path": "hello.txt", "max_bytes": 3}',
      'get_working_directory',
      'read_text_file {"path": 5}',
      'call read_text_file {not json',
    ].join('\n');
    const run = await runLibos(['shell', '--provider', 'memfs'], { input: script });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('read_text_file: ');
    expect(run.stdout).toContain('[not_found]');
    expect(run.stdout).toContain('"working_directory": "."');
    expect(run.stdout).toContain('[invalid_arguments]');
    expect(run.stdout).toContain('the arguments are not valid JSON');
  });

  it('reports a heredoc left open at the end of input and writes nothing', async () => {
    const run = await runLibos(['shell', '--root', workspace.path], { input: 'write open.txt <<EOF\nno end' });
    expect(run.stdout).toContain('input ended before the line "EOF"');
    expect(run.status).toBe(1);
  });

  it('exits 0 when every command of a script succeeded, and 1 when one failed', async () => {
    expect((await runLibos(['shell', '--provider', 'memfs'], { input: 'mkdir a\ncd a\npwd\n' })).status).toBe(0);
    expect((await runLibos(['shell', '--provider', 'memfs'], { input: 'mkdir a\ncat nothing\npwd\n' })).status).toBe(1);
  });

  it('shows hostile names, paths and contents escaped, so they cannot redraw the terminal', async () => {
    const scratch = await temporaryDirectory();
    try {
      // On a terminal, CR plus "erase line" would show only `ok`; U+202E would reverse the rest.
      await writeFile(join(scratch.path, 'x\r\u001b[2Kok\u202Etxt.exe\u2066\u200D'), 'evil\u001b]0;title\u0007 text\u2028more\n');
      const name = 'y\u001b[2Kok\u202Etxt';
      const script = [`write "${name}" hi`, 'ls', 'cat "x\u001b[2Kok\u202Etxt.exe\u2066\u200D"', `cd "${name}"`].join('\n');
      const run = await runLibos(['shell', '--root', scratch.path], { input: script });
      expect(run.stdout).toContain('created y\\u{001B}[2Kok\\u{202E}txt (');
      expect(run.stdout).toMatch(/ x\\r\\u\{001B\}\[2Kok\\u\{202E\}txt\.exe\\u\{2066\}\\u\{200D\}\n/u);
      expect(run.stdout).toMatch(/^cd: .+ \[not_a_directory\]$/mu);
      expect(run.stdout).not.toMatch(/[\r\u001b\u0007\u202e\u2066\u200d\u2028]/u);
    } finally {
      await scratch.remove();
    }
  });

  it("shows a file's controls escaped by cat, keeping its lines", async () => {
    const scratch = await temporaryDirectory();
    try {
      await writeFile(join(scratch.path, 'f.txt'), 'one\n\ttwo \\d\u001b]0;title\u0007\u2028three\n');
      const run = await runLibos(['shell', '--root', scratch.path], { input: 'cat f.txt\n' });
      expect(run.stdout).toBe('one\n\ttwo \\d\\u{001B}]0;title\\u{0007}\\u{2028}three\n');
    } finally {
      await scratch.remove();
    }
  });
});

describe('libos demo', () => {
  it('tours the tools on a demo workspace and exits 0', async () => {
    const directory = join(workspace.path, 'demo');
    for (let round = 0; round < 2; round += 1) {
      const run = await runLibos(['demo', directory]);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('"code":"protected_path"');
      expect(run.stdout).toContain('"code":"outside_workspace"');
      expect(run.stdout).toContain('"code":"symlink_refused"');
      expect(run.stdout.match(/"ok":true/gu)?.length).toBe(10);
    }
    expect(await readFile(join(directory, 'docs/notes.md'), 'utf8')).toContain('libos demo');
  });
});

describe("the demo's last line", () => {
  it('works pasted into a shell in the clone, as `pnpm demo` printed it (libos is not on the PATH there)', async () => {
    // A root a shell would split or expand unquoted.
    const directory = join(workspace.path, "it's a $HOME demo");
    const demo = spawnSync(process.execPath, [LIBOS_BIN, 'demo', directory], {
      cwd: clone,
      encoding: 'utf8',
      env: { ...process.env, npm_config_user_agent: 'pnpm/12.4.2 npm/? node/v20 linux x64' },
    });
    expect(demo.status, demo.stderr).toBe(0);
    const last = demo.stdout.trimEnd().split('\n').at(-1) ?? '';
    const line = last.replace(/^Explore it yourself: /u, '');
    expect(line).toMatch(/^pnpm exec libos shell --root /u);
    const pasted = spawnSync('bash', ['-c', line], { cwd: clone, encoding: 'utf8', input: 'cat docs/notes.md\n' });
    expect({ status: pasted.status, stderr: pasted.stderr }).toEqual({ status: 0, stderr: '' });
    expect(pasted.stdout).toContain('Written by the libos demo');
  });
});
