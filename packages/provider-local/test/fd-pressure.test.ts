import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChild, type ChildBundle } from './child-bundle.js';

const havePrlimit = spawnSync('prlimit', ['--version']).status === 0;

let child: ChildBundle;
let root: string;
beforeAll(async () => {
  child = await bundleChild('fd-pressure-reader');
  root = mkdtempSync(join(tmpdir(), 'libos-fd-pressure-'));
  writeFileSync(join(root, 'note.txt'), 'plain file\n');
});
afterAll(() => {
  child?.remove();
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!havePrlimit)('a read under file-descriptor pressure (EMFILE)', () => {
  it('fails as provider_failure, never as a refusal of something not seen (symlink_refused), and reads once fds are free', async () => {
    const run = spawn('prlimit', ['--nofile=64:64', process.execPath, child.file, root], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    run.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise((resolve) => run.once('exit', resolve));
    const outcomes = JSON.parse(output) as string[];
    expect(outcomes).toHaveLength(9);
    expect(outcomes[0]).toBe('provider_failure');
    expect(outcomes.at(-1)).toBe('ok');
    for (const outcome of outcomes) expect(['ok', 'provider_failure']).toContain(outcome);
  }, 60_000);
});
