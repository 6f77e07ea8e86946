import { spawn } from 'node:child_process';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBOS_BIN, temporaryDirectory } from './support/libos-binary.js';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  scratch = await temporaryDirectory();
});
afterAll(() => scratch.remove());

/** Starts `libos mcp`, waits until it serves, sends `signal`, and resolves with the exit code. */
async function stopWith(signal: NodeJS.Signals, args: readonly string[]): Promise<number | null> {
  const child = spawn(process.execPath, [LIBOS_BIN, 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('serving')) resolve();
    });
    child.once('exit', () => reject(new Error('libos mcp exited before serving')));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill(signal);
  const code = await exited;
  expect(stdout).toBe(''); // nothing but protocol messages, and none were asked for
  return code;
}

describe('libos mcp on a signal', () => {
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('%s saves the Objects and exits 0', async (signal) => {
    const root = join(scratch.path, `root-${signal}`);
    await mkdir(root);
    const config = join(scratch.path, 'shared.json');
    await writeFile(config, JSON.stringify({ namespaces: [{ name: 'shared', rights: ['read', 'write'] }] }));
    const checkpoint = join(scratch.path, `${signal}.checkpoint`);
    expect(await stopWith(signal, ['--root', root, '--config', config, '--objects', checkpoint])).toBe(0);
    expect((await stat(checkpoint)).isFile()).toBe(true);
  });
});
