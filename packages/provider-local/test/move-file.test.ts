import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { createLocalProvider } from '../src/index.js';
import { OUTSIDE_CONTENT, createLocalTestbed, fingerprintTree, trackTestbeds } from './local-testbed.js';

const track = trackTestbeds();

async function localRuntime(config?: Parameters<typeof createRuntime>[0]['config']) {
  const bed = track(createLocalTestbed());
  const runtime = await createRuntime({ provider: bed.provider, ...(config === undefined ? {} : { config }) });
  return { ...bed, runtime, process: runtime.spawn() };
}

describe('move_file on real disk', () => {
  it('renames the inode itself (mode, content and identity move), creating missing parents', async () => {
    const { sandbox, process: agent } = await localRuntime();
    writeFileSync(sandbox.at('run.sh'), 'echo hi\n');
    chmodSync(sandbox.at('run.sh'), 0o750);
    const inode = statSync(sandbox.at('run.sh')).ino;
    expect(await agent.call('move_file', { from: 'run.sh', to: 'bin/tools/run.sh' })).toEqual({
      ok: true,
      result: { from: 'run.sh', to: 'bin/tools/run.sh', replaced: false },
    });
    expect(existsSync(sandbox.at('run.sh'))).toBe(false);
    const moved = statSync(sandbox.at('bin/tools/run.sh'));
    expect([moved.ino, moved.mode & 0o7777, moved.nlink]).toEqual([inode, 0o750, 1]);
    writeFileSync(sandbox.at('other.sh'), 'echo other\n');
    expect(await agent.call('move_file', { from: 'other.sh', to: 'bin/tools/run.sh' })).toMatchObject({
      ok: false,
      error: { code: 'already_exists', effect: 'none' },
    });
    expect(await agent.call('move_file', { from: 'other.sh', to: 'bin/tools/run.sh', overwrite: true })).toMatchObject({
      ok: true,
      result: { replaced: true },
    });
    expect(readFileSync(sandbox.at('bin/tools/run.sh'), 'utf8')).toBe('echo other\n');
  });

  it('refuses links, hard links, FIFOs and directories on either side; the outside stays as it was', async () => {
    const { sandbox, process: agent } = await localRuntime();
    writeFileSync(sandbox.at('plain.txt'), 'plain');
    mkdirSync(sandbox.at('dir'));
    symlinkSync(join(sandbox.outside, 'secret.txt'), sandbox.at('file-link'));
    symlinkSync(join(sandbox.outside, 'directory'), sandbox.at('dir-link'));
    symlinkSync('nowhere', sandbox.at('dangling'));
    linkSync(join(sandbox.outside, 'secret.txt'), sandbox.at('hard.txt'));
    execFileSync('mkfifo', [sandbox.at('pipe')]);
    const before = fingerprintTree(sandbox.outside);
    for (const [args, code] of [
      [{ from: 'file-link', to: 'x.txt' }, 'symlink_refused'],
      [{ from: 'dir-link/secret.txt', to: 'x.txt' }, 'symlink_refused'],
      [{ from: 'plain.txt', to: 'dir-link/stolen.txt' }, 'symlink_refused'],
      [{ from: 'plain.txt', to: 'file-link', overwrite: true }, 'symlink_refused'],
      [{ from: 'plain.txt', to: 'dangling' }, 'symlink_refused'],
      [{ from: 'hard.txt', to: 'x.txt' }, 'hard_link_refused'],
      [{ from: 'plain.txt', to: 'hard.txt', overwrite: true }, 'hard_link_refused'],
      [{ from: 'pipe', to: 'x.txt' }, 'not_a_file'],
      [{ from: 'dir', to: 'x.txt' }, 'not_a_file'],
      [{ from: 'plain.txt', to: 'dir', overwrite: true }, 'not_a_file'],
      [{ from: 'missing.txt', to: 'x.txt' }, 'not_found'],
      [{ from: 'plain.txt', to: '.libos-staging/x' }, 'protected_path'],
    ] as const) {
      const outcome = await agent.call('move_file', args);
      expect(outcome, JSON.stringify(args)).toMatchObject({ ok: false, error: { code, effect: 'none' } });
      expect(JSON.stringify(outcome)).not.toContain(sandbox.base);
      expect(JSON.stringify(outcome)).not.toContain(OUTSIDE_CONTENT);
    }
    expect(readFileSync(sandbox.at('plain.txt'), 'utf8')).toBe('plain');
    expect(existsSync(sandbox.at('x.txt'))).toBe(false);
    expect(fingerprintTree(sandbox.outside)).toBe(before);
  });

  it('two runtimes racing moves onto one name: exactly one wins, nothing is lost, opposite moves never deadlock', async () => {
    const { sandbox, provider } = track(createLocalTestbed());
    const runtimes = [await createRuntime({ provider }), await createRuntime({ provider: createLocalProvider({ root: sandbox.root }) })];
    for (let round = 0; round < 20; round++) {
      writeFileSync(sandbox.at(`a${round}.txt`), 'A');
      writeFileSync(sandbox.at(`b${round}.txt`), 'B');
      const outcomes = await Promise.all([
        runtimes[0]!.spawn().call('move_file', { from: `a${round}.txt`, to: `c${round}.txt` }),
        runtimes[1]!.spawn().call('move_file', { from: `b${round}.txt`, to: `c${round}.txt` }),
      ]);
      expect(
        outcomes.filter((outcome) => outcome.ok),
        JSON.stringify(outcomes),
      ).toHaveLength(1);
      const winner = readFileSync(sandbox.at(`c${round}.txt`), 'utf8');
      expect(readFileSync(sandbox.at(`${winner === 'A' ? 'b' : 'a'}${round}.txt`), 'utf8')).toBe(winner === 'A' ? 'B' : 'A');
    }
    writeFileSync(sandbox.at('left.txt'), 'L');
    writeFileSync(sandbox.at('right.txt'), 'R');
    const swaps = await Promise.all([
      runtimes[0]!.spawn().call('move_file', { from: 'left.txt', to: 'right.txt', overwrite: true }),
      runtimes[1]!.spawn().call('move_file', { from: 'right.txt', to: 'left.txt', overwrite: true }),
    ]);
    expect(swaps.some((outcome) => outcome.ok)).toBe(true);
    await runtimes[1]!.close();
  });

  it('never moves a secret to a lower label on disk either', async () => {
    const { sandbox, process: agent } = await localRuntime({ labels: [{ path: 'secrets', tree: true, label: 'secret' }] });
    mkdirSync(sandbox.at('secrets'));
    writeFileSync(sandbox.at('secrets/key.txt'), 'KEY');
    expect(await agent.call('move_file', { from: 'secrets/key.txt', to: 'key.txt' })).toMatchObject({
      ok: false,
      error: { code: 'egress_denied', effect: 'none' },
    });
    expect(readFileSync(sandbox.at('secrets/key.txt'), 'utf8')).toBe('KEY');
  });
});
