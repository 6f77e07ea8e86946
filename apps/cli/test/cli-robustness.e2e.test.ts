import { spawn } from 'node:child_process';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBOS_BIN, runLibos, temporaryDirectory } from './support/libos-binary.js';

let workspace: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  workspace = await temporaryDirectory();
  await writeFile(join(workspace.path, 'big.txt'), 'x'.repeat(60_000));
  await writeFile(join(workspace.path, 'shared.json'), JSON.stringify({ namespaces: [{ name: 'shared', rights: ['read', 'write'] }] }));
});
afterAll(async () => {
  await workspace?.remove();
});

/** Runs `libos ARGS` and closes its stdout after the first chunk, as `| head -1` does. */
function runWithClosedStdout(args: readonly string[], input: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LIBOS_BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.once('data', () => child.stdout.destroy());
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
    child.stdin.end(input);
  });
}

describe('a reader that stops reading stdout', () => {
  it('ends the shell quietly with status 0, no stack trace', async () => {
    const run = await runWithClosedStdout(['shell', '--root', workspace.path], 'cat big.txt\n'.repeat(40));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

describe('--objects that cannot be saved', () => {
  it('is refused at start with one line and status 2 when its directory is missing', async () => {
    const options = ['--root', workspace.path, '--config', join(workspace.path, 'shared.json')];
    const run = await runLibos(['call', 'get_working_directory', ...options, '--objects', join(workspace.path, 'no-dir', 'objects.db')]);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('--objects');
    expect(run.status).toBe(2);
  });
});

describe('libos demo on a bad DIR', () => {
  it('says so in one line with status 2', async () => {
    const run = await runLibos(['demo', join(workspace.path, 'big.txt')]);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('big.txt');
    expect(run.status).toBe(2);
  });
});

describe('libos shell `write` without text', () => {
  it('asks for the text instead of writing a lone newline', async () => {
    const run = await runLibos(['shell', '--root', workspace.path], { input: 'write forgot.txt\n' });
    expect(run.status).toBe(1); // the command failed: a script says so (issue 9)
    expect(run.stdout).toMatch(/^write: expected TEXT/mu);
    await expect(access(join(workspace.path, 'forgot.txt'))).rejects.toThrow();
    expect(await readFile(join(workspace.path, 'big.txt'), 'utf8')).toHaveLength(60_000);
  });
});
