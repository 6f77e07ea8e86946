import { describe, expect, it } from 'vitest';
import { createTestbed, text } from './support/harness.js';

describe('move_file', () => {
  it('moves a file, creating missing parents, and reports canonical paths', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a/old.txt', 'content');
    expect(await bed.ok('move_file', { from: 'a/./old.txt', to: 'b/c/../new.txt' })).toEqual({ from: 'a/old.txt', to: 'b/new.txt', replaced: false });
    expect(await bed.fixtures.kindOf('a/old.txt')).toBe('missing');
    expect(text(await bed.fixtures.readFile('b/new.txt'))).toBe('content');
  });

  it('refuses anything at `to` without overwrite, and with it replaces a regular file only', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('one.txt', 'one');
    await bed.fixtures.writeFile('two.txt', 'two');
    await bed.fixtures.makeDirectory('dir');
    expect(await bed.fail('move_file', { from: 'one.txt', to: 'two.txt' })).toMatchObject({ code: 'already_exists', effect: 'none' });
    expect(await bed.fail('move_file', { from: 'one.txt', to: 'dir' })).toMatchObject({ code: 'not_a_file', effect: 'none' });
    expect(await bed.fail('move_file', { from: 'one.txt', to: 'dir', overwrite: true })).toMatchObject({ code: 'not_a_file', effect: 'none' });
    expect(text(await bed.fixtures.readFile('two.txt'))).toBe('two');
    expect(await bed.ok('move_file', { from: 'one.txt', to: 'two.txt', overwrite: true })).toEqual({
      from: 'one.txt',
      to: 'two.txt',
      replaced: true,
    });
    expect(text(await bed.fixtures.readFile('two.txt'))).toBe('one');
    expect(await bed.fixtures.kindOf('one.txt')).toBe('missing');
  });

  it('moving a file onto itself changes nothing, but still needs a movable file there', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('same.txt', 'same');
    expect(await bed.ok('move_file', { from: 'same.txt', to: './same.txt' })).toEqual({ from: 'same.txt', to: 'same.txt', replaced: false });
    expect(text(await bed.fixtures.readFile('same.txt'))).toBe('same');
    expect(await bed.fail('move_file', { from: 'none.txt', to: 'none.txt' })).toMatchObject({ code: 'not_found' });
  });

  it('refuses links, hard links, special files and directories on either side, and the outside stays as it was', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('plain.txt', 'plain');
    await bed.fixtures.makeDirectory('dir');
    await bed.fixtures.symlink('file-link', bed.fixtures.outside.fileTarget('.'));
    await bed.fixtures.symlink('dir-link', bed.fixtures.outside.directoryTarget('.'));
    await bed.fixtures.symlink('dangling', 'nowhere');
    await bed.fixtures.outside.hardLinkFromOutside('hard.txt');
    await bed.fixtures.fifo('pipe');
    const outside = await bed.fixtures.outside.fingerprint();
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
      [{ from: 'missing.txt', to: 'x.txt' }, 'not_found'],
      [{ from: 'plain.txt', to: 'plain.txt/inside' }, 'not_a_directory'],
      [{ from: 'plain.txt', to: '.git/hooks/pre-commit' }, 'protected_path'],
      [{ from: '.git/config', to: 'x.txt' }, 'protected_path'],
      [{ from: 'plain.txt', to: '.Git./x' }, 'protected_path'],
      [{ from: 'plain.txt', to: '../x.txt' }, 'outside_workspace'],
      [{ from: 'plain.txt', to: '.' }, 'not_a_file'],
      [{ from: 'plain.txt' }, 'invalid_arguments'],
      [{ from: 'plain.txt', to: 'x', overwrite: 'yes' }, 'invalid_arguments'],
    ] as const) {
      expect(await bed.fail('move_file', args), JSON.stringify(args)).toMatchObject({ code, effect: 'none' });
    }
    expect(text(await bed.fixtures.readFile('plain.txt'))).toBe('plain');
    expect(await bed.fixtures.kindOf('x.txt')).toBe('missing');
    expect(await bed.fixtures.outside.fingerprint()).toBe(outside);
  });

  it('lets exactly one of two racing moves onto one free name win', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'A');
    await bed.fixtures.writeFile('b.txt', 'B');
    const outcomes = await Promise.all([
      bed.call('move_file', { from: 'a.txt', to: 'c.txt' }),
      bed.call('move_file', { from: 'b.txt', to: 'c.txt' }),
    ]);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.error.code === 'already_exists')).toHaveLength(1);
    const survivor = text(await bed.fixtures.readFile('c.txt'));
    expect(['A', 'B']).toContain(survivor);
    // The loser's file is still where it was: nothing lost.
    expect(text(await bed.fixtures.readFile(survivor === 'A' ? 'b.txt' : 'a.txt'))).toBe(survivor === 'A' ? 'B' : 'A');
  });
});

describe('move_file authority and labels', () => {
  const LABELS = {
    grants: [{ path: '.', tree: true, rights: ['read' as const, 'write' as const, 'delete' as const] }],
    labels: [
      { path: 'secrets', tree: true, label: 'secret' as const },
      { path: 'vault', tree: true, label: 'secret' as const },
      { path: 'public', tree: true, label: 'public' as const },
    ],
    sinks: [
      { path: 'vault', tree: true, max_label: 'secret' as const },
      { path: 'outbox', tree: true, max_label: 'public' as const },
    ],
  };

  it('never launders a label: a secret cannot move to a normal or public path, nor past a lower sink', async () => {
    const bed = await createTestbed({ config: LABELS });
    await bed.fixtures.writeFile('secrets/key.txt', 'KEY');
    await bed.fixtures.writeFile('notes.txt', 'normal notes');
    for (const to of ['key.txt', 'public/key.txt', 'outbox/key.txt', 'secrets2/key.txt']) {
      const error = await bed.fail('move_file', { from: 'secrets/key.txt', to });
      expect(error, to).toMatchObject({ code: 'egress_denied', effect: 'none' });
      expect(error.message).not.toContain('secret ');
    }
    // Refused before any probe: the same answer for a file that does not exist.
    expect(await bed.fail('move_file', { from: 'secrets/none.txt', to: 'key.txt' })).toMatchObject({ code: 'egress_denied' });
    expect(text(await bed.fixtures.readFile('secrets/key.txt'))).toBe('KEY');
    // Inside its own label, and into a vault labelled as high, a secret moves freely.
    await bed.ok('move_file', { from: 'secrets/key.txt', to: 'secrets/deeper/key.txt' });
    await bed.ok('move_file', { from: 'secrets/deeper/key.txt', to: 'vault/key.txt' });
    // A normal file may move up, but not into a public outbox sink.
    await bed.ok('move_file', { from: 'notes.txt', to: 'secrets/notes.txt' });
    await bed.fixtures.writeFile('plain.txt', 'x');
    expect(await bed.fail('move_file', { from: 'plain.txt', to: 'outbox/plain.txt' })).toMatchObject({ code: 'egress_denied' });
    expect(await bed.fail('move_file', { from: 'plain.txt', to: 'public/plain.txt' })).toMatchObject({ code: 'egress_denied' });
  });

  it('needs delete on from and write on to, checked before anything is probed', async () => {
    const bed = await createTestbed({
      config: {
        grants: [
          { path: '.', tree: true, rights: ['read', 'write'] },
          { path: 'removable', tree: true, rights: ['delete'] },
          { path: 'readonly', tree: true, rights: ['write'], mode: 'deny' },
        ],
      },
    });
    await bed.fixtures.writeFile('kept.txt', 'k');
    await bed.fixtures.writeFile('removable/a.txt', 'a');
    expect(await bed.fail('move_file', { from: 'kept.txt', to: 'moved.txt' })).toMatchObject({
      code: 'denied',
      details: { right: 'delete', path: 'kept.txt' },
    });
    expect(await bed.fail('move_file', { from: 'removable/a.txt', to: 'readonly/a.txt' })).toMatchObject({
      code: 'denied',
      details: { right: 'write', path: 'readonly/a.txt' },
    });
    expect(await bed.ok('move_file', { from: 'removable/a.txt', to: 'a.txt' })).toEqual({ from: 'removable/a.txt', to: 'a.txt', replaced: false });
  });
});
