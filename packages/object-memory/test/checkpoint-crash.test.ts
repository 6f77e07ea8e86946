import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createObjectMemory } from '../src/index.js';

const child = fileURLToPath(new URL('./fixtures/checkpoint-child.mjs', import.meta.url));
let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'libos-crash-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

it('a checkpoint killed midway by SIGKILL leaves the previous image whole and loadable', async () => {
  const file = join(directory, 'memory.sqlite');
  const previous = await createObjectMemory({ namespaces: ['big'] });
  const kept = await previous.create({ namespace: 'big', name: 'o0', type: 'plan', payload: { content: 'the old image' }, createdBy: 'pid_parent' });
  await previous.checkpoint(file);

  // The child fills a memory, says so, then writes a checkpoint of tens of megabytes over `file`.
  const running = spawn(process.execPath, [child, file, '10000', '6000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  running.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => running.on('exit', (code, signal) => resolve(signal ?? code)));

  let sawTemporary = false;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && running.exitCode === null) {
    // Kill only once the replacement image is being written beside the target.
    if (output.includes('checkpointing') && readdirSync(directory).some((name) => name.endsWith('.tmp'))) {
      sawTemporary = true;
      running.kill('SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  expect(await exited).toBe('SIGKILL');
  expect(sawTemporary).toBe(true);
  expect(output).not.toContain('done');

  const restored = await createObjectMemory({ restore: file });
  expect(await restored.list('big')).toEqual([kept]);
});
