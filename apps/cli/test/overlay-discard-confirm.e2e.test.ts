import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIBOS_BIN, runLibos, temporaryDirectory } from './support/libos-binary.js';

// `libos discard` drops the person's only copy of the agent's work: it asks first, in a terminal.
let base: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let state: string;
beforeEach(async () => {
  base = await temporaryDirectory('libos-discard-confirm-');
  root = join(base.path, 'project');
  state = join(base.path, 'review.overlay');
  await mkdir(root);
  await writeFile(join(root, 'a.txt'), 'alpha\n');
});
afterEach(async () => {
  await base?.remove();
});

const on = () => ['--root', root, '--overlay', state];
const agent = (tool: string, args: unknown) => runLibos(['call', tool, JSON.stringify(args), ...on()]);
const listed = async () =>
  (JSON.parse((await runLibos(['changes', ...on()])).stdout) as { changes: Array<{ path: string }> }).changes.map((c) => c.path);

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
const hasScript = spawnSync('script', ['--version']).status === 0;

/** Runs `libos discard ARGS` on a pseudo-terminal (util-linux `script`), typing `answer`. */
function discardInTerminal(args: readonly string[], answer: string): Promise<{ status: number | null; output: string }> {
  const command = [process.execPath, LIBOS_BIN, 'discard', ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
    child.stdin.end(answer);
  });
}

describe('libos discard asks before it drops the agent’s work', () => {
  it('refuses without a terminal and without --yes, dropping nothing; --yes drops', async () => {
    await agent('write_text_file', { path: 'b.txt', content: 'agent work\n' });
    const refused = await runLibos(['discard', ...on()]);
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('add --yes');
    expect(await listed()).toEqual(['b.txt']);
    const yes = await runLibos(['discard', '--yes', ...on()]);
    expect(yes.status, yes.stderr).toBe(0);
    expect(JSON.parse(yes.stdout)).toEqual({ discarded: ['b.txt'], conflicts: [] });
    expect(await listed()).toEqual([]);
  });

  it.skipIf(!hasScript)('in a terminal says what is lost and drops only on y', async () => {
    await agent('write_text_file', { path: 'b.txt', content: 'agent work\n' });
    await agent('write_text_file', { path: 'a.txt', content: 'ALPHA!\n' });
    const declined = await discardInTerminal(on(), 'n\n');
    expect(declined.status).toBe(1);
    expect(declined.output).toContain('this drops 2 changes of the agent (2 files, 18 bytes it wrote); no copy is kept. Discard? [y/N]');
    expect(declined.output).toContain('nothing was discarded');
    expect(await listed()).toEqual(['a.txt', 'b.txt']);
    // Enter alone is no.
    expect((await discardInTerminal(on(), '\n')).status).toBe(1);
    expect(await listed()).toEqual(['a.txt', 'b.txt']);
    const one = await discardInTerminal(['b.txt', ...on()], 'y\n');
    expect(one.status).toBe(0);
    expect(one.output).toContain('this drops 1 change of the agent at b.txt (1 file, 11 bytes it wrote)');
    expect(await listed()).toEqual(['a.txt']);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('alpha\n');
  });
});
