import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';

let base: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let state: string;
beforeEach(async () => {
  base = await temporaryDirectory('libos-overlay-cli-');
  root = join(base.path, 'workspace');
  state = join(base.path, 'review.overlay');
  await mkdir(join(root, 'old'), { recursive: true });
  await writeFile(join(root, 'a.txt'), 'alpha\n');
  await writeFile(join(root, 'old', 'x.txt'), 'x\n');
});
afterEach(async () => {
  await base?.remove();
});

const on = () => ['--root', root, '--overlay', state];
const agent = (tool: string, args: unknown) => runLibos(['call', tool, JSON.stringify(args), ...on()]);

describe('libos call --overlay and the review commands', () => {
  it('keeps the agent off the disk until a person applies, then undoes exactly', async () => {
    expect((await agent('write_text_file', { path: 'a.txt', content: 'ALPHA\n' })).status).toBe(0);
    expect((await agent('delete_directory', { path: 'old', recursive: true })).status).toBe(0);
    expect((await agent('write_text_file', { path: 'new/b.txt', content: 'b\n' })).status).toBe(0);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(await readFile(join(root, 'old', 'x.txt'), 'utf8')).toBe('x\n');

    const changes = await runLibos(['changes', ...on()]);
    expect(changes.status).toBe(0);
    const listed = JSON.parse(changes.stdout) as { changes: Array<{ path: string; change: string }>; totals: unknown; next_cursor: unknown };
    expect(listed.changes.map((change) => [change.path, change.change])).toEqual([
      ['a.txt', 'modified'],
      ['new', 'added'],
      ['new/b.txt', 'added'],
      ['old', 'deleted'],
    ]);
    expect(listed.totals).toEqual({ added: 2, modified: 1, deleted: 1, replaced: 0 });
    const page = JSON.parse((await runLibos(['changes', '--limit', '3', ...on()])).stdout) as { changes: unknown[]; next_cursor: string };
    expect(page.changes.length).toBe(3);
    const rest = JSON.parse((await runLibos(['changes', '--cursor', page.next_cursor, ...on()])).stdout) as { changes: Array<{ path: string }> };
    expect(rest.changes.map((change) => change.path)).toEqual(['old']);

    const diff = await runLibos(['diff', 'a.txt', ...on()]);
    expect(diff.status).toBe(0);
    expect(diff.stdout).toMatch(/^--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1 \+1 @@ #1\n-alpha\n\+ALPHA\n# version c-[0-9a-f]{32} a\.txt\n# version s-/u);

    const history = JSON.parse((await runLibos(['history', ...on()])).stdout) as { calls: Array<{ seq: number; tool: string }> };
    expect(history.calls.map((call) => call.tool)).toEqual(['write_text_file', 'delete_directory', 'write_text_file']);

    const apply = await runLibos(['apply', ...on()]);
    expect(apply.status).toBe(0);
    const applied = JSON.parse(apply.stdout) as { apply_id: string; applied: string[]; conflicts: unknown[] };
    expect(applied.applied).toEqual(['a.txt', 'new', 'new/b.txt', 'old']);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('ALPHA\n');
    expect(await readFile(join(root, 'new', 'b.txt'), 'utf8')).toBe('b\n');
    await expect(readFile(join(root, 'old', 'x.txt'))).rejects.toThrow();

    const undo = await runLibos(['undo-apply', applied.apply_id, ...on()]);
    expect(undo.status).toBe(0);
    expect(JSON.parse(undo.stdout)).toEqual({ restored: ['a.txt', 'new', 'new/b.txt', 'old'], conflicts: [] });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(await readFile(join(root, 'old', 'x.txt'), 'utf8')).toBe('x\n');
  });

  it('exits 3 with the conflicts a person made, and all-or-nothing leaves the disk untouched', async () => {
    await agent('write_text_file', { path: 'a.txt', content: 'agent\n' });
    await agent('write_text_file', { path: 'c.txt', content: 'agent\n' });
    await writeFile(join(root, 'a.txt'), 'person\n');
    const all = await runLibos(['apply', '--all-or-nothing', ...on()]);
    expect(all.status).toBe(3);
    expect(JSON.parse(all.stdout)).toMatchObject({ apply_id: null, applied: [], conflicts: [{ path: 'a.txt', reason: 'overlapping_edit' }] });
    await expect(readFile(join(root, 'c.txt'))).rejects.toThrow();
    const some = await runLibos(['apply', '--per-file', ...on()]);
    expect(some.status).toBe(3);
    expect(JSON.parse(some.stdout)).toMatchObject({ applied: ['c.txt'], conflicts: [{ path: 'a.txt' }] });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('person\n');
    expect(JSON.parse((await runLibos(['discard', '--yes', ...on()])).stdout)).toEqual({ discarded: ['a.txt'], conflicts: [] });
    const read = JSON.parse((await agent('read_text_file', { path: 'a.txt' })).stdout) as { result: { content: string } };
    expect(read.result.content).toBe('person\n');
  });

  it('rewinds the agent to right after a call', async () => {
    await agent('write_text_file', { path: 'a.txt', content: 'one\n' });
    await agent('write_text_file', { path: 'a.txt', content: 'two\n' });
    const rewind = await runLibos(['rewind', '1', ...on()]);
    expect(rewind.status).toBe(0);
    expect(JSON.parse(rewind.stdout)).toEqual({ rewound: 1 });
    const read = JSON.parse((await agent('read_text_file', { path: 'a.txt' })).stdout) as { result: { content: string } };
    expect(read.result.content).toBe('one\n');
  });

  it('answers --help for each command and exits 2 for bad input', async () => {
    for (const command of ['changes', 'diff', 'apply', 'undo-apply', 'discard', 'history', 'rewind']) {
      const help = await runLibos([command, '--help']);
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: libos ${command} `));
    }
    const bad = [
      ['changes', '--root', root],
      ['changes', '--limit', 'ten', ...on()],
      ['changes', '--cursor', '!!', ...on()],
      ['apply', '--bogus', ...on()],
      ['rewind', ...on()],
      ['rewind', '99', ...on()],
      ['undo-apply', 'apply_0000000000000000', ...on()],
      ['changes', '--root', root, '--overlay', join(root, 'inside.overlay')],
      ['call', 'get_working_directory', '{}', '--root', root, '--overlay', join(root, 'inside.overlay')],
    ];
    for (const args of bad) {
      const run = await runLibos(args);
      expect({ args, status: run.status }).toEqual({ args, status: 2 });
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('refuses an --overlay state that is a link into the root, or whose -wal or -shm is, and opens nothing', async () => {
    const links = join(base.path, 'links');
    await mkdir(links);
    // A dangling link: SQLite would create the state inside the root, where the agent reads it.
    await symlink(join(root, 'agent-reads-this.overlay'), join(links, 'dangling.overlay'));
    await writeFile(join(root, 'existing.overlay'), '');
    await symlink(join(root, 'existing.overlay'), join(links, 'existing.overlay'));
    await symlink(join(root, 'journal'), join(links, 'plain.overlay-wal'));
    await symlink(root, join(links, 'into-root'));
    for (const state of ['dangling.overlay', 'existing.overlay', 'plain.overlay', 'into-root/x.overlay']) {
      const stateFile = join(links, state);
      for (const args of [
        ['changes', '--root', root, '--overlay', stateFile],
        ['apply', '--root', root, '--overlay', stateFile],
        ['call', 'list_directory', '{"path": "."}', '--root', root, '--overlay', stateFile],
      ]) {
        const run = await runLibos(args);
        expect({ args, status: run.status }).toEqual({ args, status: 2 });
        expect(run.stderr).toMatch(/--overlay .*inside the served directory/);
      }
    }
    expect((await readdir(root)).sort()).toEqual(['a.txt', 'existing.overlay', 'old']);
  });
});
