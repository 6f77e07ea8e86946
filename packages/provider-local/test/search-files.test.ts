import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { OUTSIDE_CONTENT, createLocalTestbed, fingerprintTree, trackTestbeds } from './local-testbed.js';

const track = trackTestbeds();

async function localRuntime(config?: Parameters<typeof createRuntime>[0]['config']) {
  const bed = track(createLocalTestbed());
  const runtime = await createRuntime({ provider: bed.provider, ...(config === undefined ? {} : { config }) });
  return { ...bed, runtime, process: runtime.spawn() };
}

function canBindMount(): boolean {
  return process.getuid?.() === 0;
}

describe('search_files on real disk', () => {
  it('walks real directories in code-point order and never follows a symlink, a hard link or a FIFO out of the workspace', async () => {
    const { sandbox, process: agent } = await localRuntime();
    mkdirSync(sandbox.at('src/deep'), { recursive: true });
    writeFileSync(sandbox.at('src/deep/b.txt'), `inside ${OUTSIDE_CONTENT.toLowerCase()}\n`);
    writeFileSync(sandbox.at('src/a.txt'), 'inside outside\n');
    symlinkSync(join(sandbox.outside, 'secret.txt'), sandbox.at('src/file-link'));
    symlinkSync(join(sandbox.outside, 'directory'), sandbox.at('src/dir-link'));
    linkSync(join(sandbox.outside, 'secret.txt'), sandbox.at('src/hard.txt'));
    execFileSync('mkfifo', [sandbox.at('src/pipe')]);
    mkdirSync(sandbox.at('src/.git'));
    writeFileSync(sandbox.at('src/.git/config'), OUTSIDE_CONTENT);
    const outcome = await agent.call('search_files', { path: 'src', query: 'outside', case_sensitive: false });
    expect(outcome).toEqual({
      ok: true,
      result: {
        path: 'src',
        matches: [
          { path: 'src/a.txt', line: 1, column: 8, text: 'inside outside' },
          { path: 'src/deep/b.txt', line: 1, column: 8, text: 'inside outside' },
        ],
        count: 2,
        truncated: false,
        files_searched: 2,
        stopped: null,
      },
    });
    expect(JSON.stringify(outcome)).not.toContain(sandbox.base);
  });

  it.runIf(canBindMount())('never enters a bind mount inside the workspace (run as root)', async () => {
    const { sandbox, process: agent } = await localRuntime();
    mkdirSync(sandbox.at('tree/mnt'), { recursive: true });
    writeFileSync(sandbox.at('tree/own.txt'), 'OUTSIDE word inside\n');
    execFileSync('mount', ['--bind', sandbox.outside, sandbox.at('tree/mnt')]);
    try {
      const outcome = await agent.call('search_files', { path: 'tree', query: OUTSIDE_CONTENT });
      expect(outcome).toMatchObject({ ok: true, result: { count: 1, files_searched: 1, matches: [{ path: 'tree/own.txt' }] } });
      expect(await agent.call('search_files', { path: 'tree/mnt', query: OUTSIDE_CONTENT })).toMatchObject({
        ok: false,
        error: { code: 'symlink_refused' },
      });
      // Every other tool treats the mount point like a junction too, as a component or as the target.
      const before = fingerprintTree(sandbox.outside);
      for (const [tool, args] of [
        ['read_text_file', { path: 'tree/mnt/secret.txt' }],
        ['read_directory', { path: 'tree/mnt' }],
        ['set_working_directory', { path: 'tree/mnt/directory' }],
        ['write_text_file', { path: 'tree/mnt/new.txt', content: 'x' }],
        ['edit_text_file', { path: 'tree/mnt/secret.txt', edits: [{ old_text: 'OUT', new_text: 'IN' }] }],
        ['delete_file', { path: 'tree/mnt/secret.txt' }],
        ['write_directory', { path: 'tree/mnt/made' }],
      ] as [string, Record<string, unknown>][]) {
        expect(await agent.call(tool, args), tool).toMatchObject({ ok: false, error: { code: 'symlink_refused', effect: 'none' } });
      }
      expect(fingerprintTree(sandbox.outside)).toBe(before);
    } finally {
      execFileSync('umount', [sandbox.at('tree/mnt')]);
    }
  });

  it('leaves no trace of a denied tree on disk either', async () => {
    const answers = [];
    for (const secret of [true, false]) {
      const { sandbox, process: agent } = await localRuntime({
        grants: [
          { path: '.', tree: true, rights: ['read'] },
          { path: 'vault', tree: true, rights: ['read'], mode: 'deny' },
        ],
      });
      mkdirSync(sandbox.at('vault/inner'), { recursive: true });
      writeFileSync(sandbox.at('open.txt'), 'key: open\n');
      if (secret) writeFileSync(sandbox.at('vault/inner/key.txt'), 'key: hidden\n');
      answers.push(await agent.call('search_files', { path: '.', query: 'key:' }));
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject({ ok: true, result: { count: 1, files_searched: 1 } });
  });
});
