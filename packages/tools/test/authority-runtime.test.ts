import type { ApprovalRequest, Approver, CallResult, ConfigInput } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { ALL_RIGHTS, runtimeOn, useSharedCheckpoint } from './support/authority-runtime-testbed.js';

useSharedCheckpoint();

// One call per tool on a target under private/; get_working_directory takes no path and asks nothing.
const TARGETED_CALLS: readonly [tool: string, args: Record<string, unknown>][] = [
  ['set_working_directory', { path: 'private/d' }],
  ['read_directory', { path: 'private/d' }],
  ['read_text_file', { path: 'private/f.txt' }],
  ['write_text_file', { path: 'private/f.txt', content: 'new text' }],
  ['write_text_file', { path: 'private/d', content: 'x', overwrite: false }],
  ['edit_text_file', { path: 'private/f.txt', edits: [{ old_text: 'private', new_text: 'changed' }] }],
  ['edit_text_file', { path: 'private/d', edits: [{ old_text: 'x', new_text: 'y' }] }],
  ['edit_text_file', { path: 'private/f.txt', edits: [{ old_text: 'private', new_text: 'changed' }], dry_run: true }],
  ['read_text_file', { path: 'private/f.txt', tail_lines: 2 }],
  ['read_text_file', { path: 'private/f.txt', start_line: 2 }],
  ['append_text_file', { path: 'private/f.txt', content: 'more' }],
  ['append_text_file', { path: 'private/new.txt', content: 'x', create: true }],
  ['copy_file', { from: 'private/f.txt', to: 'private/g.txt' }],
  ['copy_file', { from: 'public/f.txt', to: 'private/d', overwrite: true }],
  ['copy_file', { from: 'private/f.txt', to: 'public/copied.txt' }],
  ['search_files', { path: 'private/d', query: 'x' }],
  ['search_files', { path: 'private', query: 'private' }],
  ['find_files', { path: 'private', glob: '*' }],
  ['move_file', { from: 'private/f.txt', to: 'private/g.txt' }],
  ['move_file', { from: 'public/f.txt', to: 'private/d', overwrite: true }],
  ['move_file', { from: 'private/f.txt', to: 'public/moved.txt' }],
  ['write_directory', { path: 'private/d', exist_ok: false }],
  ['delete_file', { path: 'private/f.txt' }],
  ['delete_file', { path: 'private/d' }],
  ['delete_directory', { path: 'private/d', recursive: true }],
  ['delete_directory', { path: 'private/f.txt' }],
  ['read_media_file', { path: 'private/f.txt' }],
  ['apply_patch', { patch: '*** Begin Patch\n*** Update File: private/f.txt\n-private\n+changed\n*** End Patch' }],
  ['apply_patch', { patch: '*** Begin Patch\n*** Add File: private/new.txt\n+x\n*** End Patch' }],
  ['apply_patch', { patch: '*** Begin Patch\n*** Delete File: private/f.txt\n*** End Patch' }],
  ['apply_patch', { patch: '*** Begin Patch\n*** Update File: public/f.txt\n*** Move to: private/moved.txt\n*** End Patch' }],
  ['create_object_from_file', { name: 'copy', path: 'private/f.txt' }],
  ['write_object_to_file', { name: 'doc', namespace: 'shared', path: 'private/f.txt' }],
  ['write_object_to_file', { name: 'doc', namespace: 'shared', path: 'private/d', overwrite: false }],
];

const REFUSALS: readonly [name: string, config: ConfigInput, approver: Approver | undefined, code: string][] = [
  [
    'a deny grant',
    {
      grants: [
        { path: '.', tree: true, rights: [...ALL_RIGHTS] },
        { path: 'private', tree: true, rights: [...ALL_RIGHTS], mode: 'deny' },
      ],
    },
    undefined,
    'denied',
  ],
  ['no matching grant', { grants: [{ path: 'public', tree: true, rights: [...ALL_RIGHTS] }] }, undefined, 'denied'],
  ['a spent grant', { grants: [{ path: 'private', tree: true, rights: [...ALL_RIGHTS], uses: 1 }] }, undefined, 'denied'],
  ['an ask without approver', { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] }, undefined, 'approval_required'],
  [
    'an ask the approver rejects',
    { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] },
    async () => 'reject',
    'approval_rejected',
  ],
  [
    'an ask the approver cannot answer',
    { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] },
    async () => 'unavailable',
    'approval_required',
  ],
];

describe('authority through the runtime', () => {
  it('covers every tool that takes a path', async () => {
    const { runtime } = await runtimeOn(false, {});
    const covered = new Set(TARGETED_CALLS.map(([tool]) => tool));
    for (const tool of runtime.tools.map((summary) => summary.name)) {
      if (tool !== 'get_working_directory') expect(covered).toContain(tool);
    }
  });

  describe.each(REFUSALS)('refused by %s', (_name, config, approver, code) => {
    it.each(TARGETED_CALLS)('%s %j: same result whether the target exists, and no provider call', async (tool, args) => {
      const outcomes: CallResult[] = [];
      for (const withTargets of [true, false]) {
        const { process, calls } = await runtimeOn(withTargets, config, approver);
        if (_name === 'a spent grant') {
          // Spend the one use on another path the same tree grant covers.
          const first = await process.call('write_directory', { path: 'private/spent' });
          expect(first.ok).toBe(true);
          calls.length = 0;
        }
        outcomes.push(await process.call(tool, args));
        // An edit shows its approver the diff, a move the size and SHA-256 of what it moves, so with
        // someone to ask they read the file first (a dry run asks no one); they still write nothing
        // and answer the same whether the file exists.
        const shows = (tool === 'edit_text_file' || tool === 'move_file') && approver !== undefined && args.dry_run !== true;
        // A delete, with someone to ask, counts what it would remove: it only looks (stat, list).
        const counts = (tool === 'delete_file' || tool === 'delete_directory') && approver !== undefined;
        // A patch, with someone to ask, reads the files (or looks whether an added one exists) to show its whole diff.
        const previews = tool === 'apply_patch' && approver !== undefined;
        if (previews) expect(calls.every((call) => call === 'readFile' || call === 'stat')).toBe(true);
        else if (counts) expect([calls[0], calls.every((call) => call === 'stat' || call === 'listDirectory')]).toEqual(['stat', true]);
        else expect(calls).toEqual(shows ? ['readFile'] : []);
      }
      expect(outcomes[0]).toEqual(outcomes[1]);
      expect(outcomes[0]).toMatchObject({ ok: false, error: { code, effect: 'none' } });
      const error = (outcomes[0] as { error: { message: string; details: Record<string, unknown> } }).error;
      expect(Object.keys(error.details).sort()).toEqual(['path', 'right']);
      expect(error.message).toContain(`"${String(error.details.path)}"`);
    });
  });

  it('lets nothing reach the provider while an approval is pending', async () => {
    let release!: (decision: 'approve' | 'reject') => void;
    let asked!: () => void;
    const askedPromise = new Promise<void>((resolve) => (asked = resolve));
    const approver: Approver = () => {
      asked();
      return new Promise((resolve) => (release = resolve));
    };
    const { process, calls } = await runtimeOn(true, { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] }, approver);
    const pending = process.call('write_text_file', { path: 'private/f.txt', content: 'approved text' });
    await askedPromise;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toEqual([]);
    release('approve');
    expect(await pending).toMatchObject({ ok: true, result: { path: 'private/f.txt', created: false } });
    expect(calls).toEqual(['writeFile']);
  });

  it('drops a pending approval when the call is aborted, changing nothing', async () => {
    const controller = new AbortController();
    const approver: Approver = () => {
      setTimeout(() => controller.abort(), 5);
      return new Promise(() => {});
    };
    const { process, calls } = await runtimeOn(true, { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] }, approver);
    const outcome = await process.call('delete_file', { path: 'private/f.txt' }, { signal: controller.signal });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'approval_required', effect: 'none' } });
    // It looked (to count what the delete would remove) but changed nothing.
    expect(calls).toEqual(['stat']);
  });

  it.each<[string, Record<string, unknown>]>([
    ['write_text_file', { path: 'notes.txt', content: 5 }],
    ['write_text_file', { path: 'notes.txt', content: 'x', encoding: 'no-such-codec' }],
    ['write_text_file', { path: 'notes.txt', content: 'x', extra: true }],
    ['write_text_file', { path: '../notes.txt', content: 'x' }],
    ['write_text_file', { path: '.git/notes.txt', content: 'x' }],
    ['write_text_file', { path: 'notes.txt\u0000', content: 'x' }],
    ['write_text_file', { path: 'notes.txt', content: 'x', encoding: 'ascii', nothing: 1 }],
    ['write_text_file', { path: 'notes.txt', content: 'é', encoding: 'ascii' }],
    ['read_text_file', { path: 'notes.txt' }],
  ])('%s %j neither reaches the provider nor spends a use', async (tool, args) => {
    const approvals: ApprovalRequest[] = [];
    const { process, calls } = await runtimeOn(
      true,
      { grants: [{ path: 'notes.txt', rights: ['write'], mode: 'ask', uses: 1 }] },
      async (request) => {
        approvals.push(request);
        return 'approve';
      },
    );
    const outcome = await process.call(tool, args);
    expect(outcome.ok).toBe(false);
    expect(calls).toEqual([]);
    expect(approvals).toEqual([]);
    expect(await process.call('write_text_file', { path: 'notes.txt', content: 'kept' })).toMatchObject({ ok: true });
    expect(calls).toEqual(['writeFile']);
  });
});
