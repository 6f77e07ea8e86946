import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createRuntime } from '@libos/tools';
import { createLocalProvider } from '../src/index.js';
import { describe, expect, it } from 'vitest';
import { OUTSIDE_CONTENT, createLocalTestbed, fingerprintTree, trackTestbeds } from './local-testbed.js';

const track = trackTestbeds();

async function localRuntime() {
  const bed = track(createLocalTestbed());
  const runtime = await createRuntime({ provider: bed.provider });
  return { ...bed, runtime, process: runtime.spawn() };
}

describe('edit_text_file on real disk', () => {
  it('replaces the file atomically with the edited bytes, keeping its mode and every other byte', async () => {
    const { sandbox, process } = await localRuntime();
    writeFileSync(sandbox.at('run.sh'), '#!/bin/sh\r\necho one\r\n');
    chmodSync(sandbox.at('run.sh'), 0o750);
    const before = statSync(sandbox.at('run.sh')).ino;
    const outcome = await process.call('edit_text_file', { path: 'run.sh', edits: [{ old_text: 'one', new_text: 'two' }] });
    expect(outcome).toMatchObject({ ok: true, result: { path: 'run.sh', replacements: 1, diff_truncated: false } });
    expect(readFileSync(sandbox.at('run.sh'), 'utf8')).toBe('#!/bin/sh\r\necho two\r\n');
    expect(statSync(sandbox.at('run.sh')).mode & 0o7777).toBe(0o750);
    // A new inode: the bytes were renamed into place, not written over the old file.
    expect(statSync(sandbox.at('run.sh')).ino).not.toBe(before);
  });

  it('refuses links, hard links, FIFOs and directories, and the outside stays as it was', async () => {
    const { sandbox, process } = await localRuntime();
    symlinkSync(join(sandbox.outside, 'secret.txt'), sandbox.at('file-link'));
    symlinkSync(join(sandbox.outside, 'directory'), sandbox.at('dir-link'));
    linkSync(join(sandbox.outside, 'secret.txt'), sandbox.at('hard.txt'));
    execFileSync('mkfifo', [sandbox.at('pipe')]);
    mkdirSync(sandbox.at('dir'));
    const before = fingerprintTree(sandbox.outside);
    for (const [path, code] of [
      ['file-link', 'symlink_refused'],
      ['dir-link/secret.txt', 'symlink_refused'],
      ['hard.txt', 'hard_link_refused'],
      ['pipe', 'not_a_file'],
      ['dir', 'not_a_file'],
      ['missing.txt', 'not_found'],
    ] as const) {
      const outcome = await process.call('edit_text_file', { path, edits: [{ old_text: 'OUTSIDE', new_text: 'PWNED' }] });
      expect(outcome, path).toMatchObject({ ok: false, error: { code, effect: 'none' } });
      expect(JSON.stringify(outcome)).not.toContain(OUTSIDE_CONTENT);
      expect(JSON.stringify(outcome)).not.toContain(sandbox.base);
    }
    expect(fingerprintTree(sandbox.outside)).toBe(before);
  });

  it('two runtimes on one workspace editing one file lose no update: every conflict is reported, every retry lands', async () => {
    const { sandbox, provider } = track(createLocalTestbed());
    writeFileSync(sandbox.at('counter.txt'), 'a=0\nb=0\n');
    // A second provider on the same directory (its own fds and state), as another runtime would have.
    const runtimes = [await createRuntime({ provider }), await createRuntime({ provider: createLocalProvider({ root: sandbox.root }) })];
    const bump = async (runtime: (typeof runtimes)[number], key: string) => {
      const agent = runtime.spawn();
      for (let done = 0; done < 15; ) {
        const read = await agent.call('read_text_file', { path: 'counter.txt' });
        if (!read.ok) throw new Error(JSON.stringify(read));
        const content = String(read.result.content);
        const value = Number(new RegExp(`${key}=(\\d+)`).exec(content)![1]);
        const outcome = await agent.call('edit_text_file', {
          path: 'counter.txt',
          edits: [{ old_text: `${key}=${value}\n`, new_text: `${key}=${value + 1}\n` }],
          expected_content_sha256: read.result.content_sha256!,
        });
        if (outcome.ok) done++;
        // A replace that lost the race is content_conflict, effect none (test/guarded-race.test.ts).
        else if (outcome.error.code !== 'content_conflict' || outcome.error.effect !== 'none') throw new Error(JSON.stringify(outcome));
      }
    };
    await Promise.all([bump(runtimes[0]!, 'a'), bump(runtimes[1]!, 'b')]);
    expect(readFileSync(sandbox.at('counter.txt'), 'utf8')).toBe('a=15\nb=15\n');
    await runtimes[1]!.close();
  });
});
