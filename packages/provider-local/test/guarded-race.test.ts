import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { createRuntime } from '@libos/tools';
import { expectFailure } from './expect-error.js';
import { STAGING, createLocalTestbed, stagedEntries, trackTestbeds } from './local-testbed.js';

// A guarded replace that loses the race between its hash check and its rename. Under the name lock
// no libOS runtime can land there, but a writer that does not take it can: a host process (an
// editor, git), a runtime in another network namespace. The hook runs under the lock just before
// the check; the racer it queues runs once the check has read the name and before the rename.
// Whatever the racer did, the caller's expectation no longer holds for what the name holds:
// `content_conflict`, effect none, the racer's result kept, nothing of the loser left.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const track = trackTestbeds();

function raceBed() {
  let racer: (() => void) | undefined;
  let ran = false;
  const bed = track(
    createLocalTestbed({
      afterResolveStep: (step) => {
        if (step.operation !== 'writeFile' || step.stage !== 'effect' || racer === undefined) return;
        const race = racer;
        racer = undefined;
        queueMicrotask(() => {
          race();
          ran = true;
        });
      },
    }),
  );
  return {
    ...bed,
    race(body: () => void) {
      racer = body;
    },
    ran: () => ran,
  };
}

describe('a guarded replace that loses a race after its check', () => {
  const races = [
    ['another file is renamed over the name', 'WINNER', (at: (name: string) => string) => renameSync(at('winner.txt'), at('f.txt'))],
    ['the file is removed', null, (at: (name: string) => string) => unlinkSync(at('f.txt'))],
    [
      'a directory takes the name',
      'directory',
      (at: (name: string) => string) => {
        renameSync(at('f.txt'), at('moved.txt'));
        mkdirSync(at('f.txt'));
      },
    ],
  ] as const;
  for (const [label, after, racer] of races) {
    it(`${label}: content_conflict, and the race's result stays`, async () => {
      const { sandbox, provider, race, ran } = raceBed();
      writeFileSync(sandbox.at('f.txt'), 'OLD');
      writeFileSync(sandbox.at('winner.txt'), 'WINNER');
      race(() => racer(sandbox.at));
      const error = await expectFailure(
        provider.writeFile(p('f.txt'), new TextEncoder().encode('LOSER'), { overwrite: true, expectedSha256: sha('OLD') }),
        'content_conflict',
      );
      expect(ran()).toBe(true);
      expect(error.details).toMatchObject({ path: 'f.txt', expected_sha256: sha('OLD') });
      if (after === null) {
        expect(error.details).toMatchObject({ actual_sha256: null });
        expect(readdirSync(sandbox.root)).not.toContain('f.txt');
      } else if (after === 'directory') {
        expect(readdirSync(sandbox.at('f.txt'))).toEqual([]);
      } else {
        expect(readFileSync(sandbox.at('f.txt'), 'utf8')).toBe(after);
      }
      expect(stagedEntries(sandbox.at(STAGING))).toEqual([]);
    });
  }

  it('through edit_text_file: content_conflict, effect none, and the racer’s bytes stay', async () => {
    const { sandbox, provider, race } = raceBed();
    writeFileSync(sandbox.at('f.txt'), 'a=1\n');
    writeFileSync(sandbox.at('winner.txt'), 'a=1\nb=2\n');
    const runtime = await createRuntime({ provider });
    const agent = runtime.spawn();
    race(() => renameSync(sandbox.at('winner.txt'), sandbox.at('f.txt')));
    const outcome = await agent.call('edit_text_file', { path: 'f.txt', edits: [{ old_text: 'a=1', new_text: 'a=9' }] });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'content_conflict', effect: 'none' } });
    expect(readFileSync(sandbox.at('f.txt'), 'utf8')).toBe('a=1\nb=2\n');
    expect(stagedEntries(sandbox.at(STAGING))).toEqual([]);
  });
});
