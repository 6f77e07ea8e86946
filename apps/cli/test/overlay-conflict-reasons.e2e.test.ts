import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';
import { startMcpSession } from './support/mcp-session.js';

// Three processes, as in real use: the agent's `libos mcp --overlay` server (still running), a
// person editing the workspace through `libos call` without the overlay, and `libos apply`.
let base: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let state: string;
beforeEach(async () => {
  base = await temporaryDirectory('libos-overlay-reasons-');
  root = join(base.path, 'workspace');
  state = join(base.path, 'agent.overlay');
  await mkdir(join(root, 'kept'), { recursive: true });
  await writeFile(join(root, 'edited.txt'), 'base\n');
  await writeFile(join(root, 'removed.txt'), 'base\n');
  await writeFile(join(root, 'kept', 'x.txt'), 'x\n');
  await writeFile(join(root, 'calm.txt'), 'calm\n');
});
afterEach(async () => {
  await base?.remove();
});

const person = async (tool: string, args: unknown) => {
  const run = await runLibos(['call', tool, JSON.stringify(args), '--root', root]);
  expect(run.status, run.stdout + run.stderr).toBe(0);
};
const onOverlay = () => ['--root', root, '--overlay', state];

describe('each conflict reason, produced by a person in another process', () => {
  it('apply reports overlapping_edit, changed_on_disk, created_on_disk and deleted_on_disk, lands the rest and keeps every edit of the person', async () => {
    const agent = await startMcpSession(onOverlay());
    onTestFinished(() => agent.close());
    for (const [tool, args] of [
      ['write_text_file', { path: 'edited.txt', content: 'agent\n' }],
      ['write_text_file', { path: 'removed.txt', content: 'agent\n' }],
      ['write_text_file', { path: 'fresh.txt', content: 'agent\n' }],
      ['delete_directory', { path: 'kept', recursive: true }],
      ['write_text_file', { path: 'calm.txt', content: 'agent calm\n' }],
    ] as const) {
      expect((await agent.call(tool, args)).isError, tool).toBeFalsy();
    }
    // The person, meanwhile, in their own process.
    await person('write_text_file', { path: 'edited.txt', content: 'person\n' });
    await person('delete_file', { path: 'removed.txt' });
    await person('write_text_file', { path: 'fresh.txt', content: 'person fresh\n' });
    await person('write_text_file', { path: 'kept/theirs.txt', content: 'person in kept\n' });

    const apply = await runLibos(['apply', '--per-file', ...onOverlay()]);
    expect(apply.status, apply.stderr).toBe(3);
    const result = JSON.parse(apply.stdout) as { applied: string[]; conflicts: Array<{ path: string; reason: string }> };
    expect(result.applied).toEqual(['calm.txt']);
    expect(result.conflicts.map((conflict) => [conflict.path, conflict.reason])).toEqual([
      ['edited.txt', 'overlapping_edit'],
      ['fresh.txt', 'created_on_disk'],
      ['kept', 'changed_on_disk'],
      ['removed.txt', 'deleted_on_disk'],
    ]);
    // Every byte the person wrote is still there, and what they deleted stays deleted.
    expect(await readFile(join(root, 'edited.txt'), 'utf8')).toBe('person\n');
    expect(await readFile(join(root, 'fresh.txt'), 'utf8')).toBe('person fresh\n');
    expect((await readdir(join(root, 'kept'))).sort()).toEqual(['theirs.txt', 'x.txt']);
    expect(await readFile(join(root, 'kept', 'theirs.txt'), 'utf8')).toBe('person in kept\n');
    await expect(readFile(join(root, 'removed.txt'))).rejects.toThrow();
    expect(await readFile(join(root, 'calm.txt'), 'utf8')).toBe('agent calm\n');

    // The conflicted changes stay for review; the running agent still sees its own view.
    const left = JSON.parse((await runLibos(['changes', ...onOverlay()])).stdout) as { changes: Array<{ path: string }> };
    expect(left.changes.map((change) => change.path)).toEqual(['edited.txt', 'fresh.txt', 'kept', 'removed.txt']);
    expect((await agent.call('read_text_file', { path: 'edited.txt' })).structuredContent).toMatchObject({ content: 'agent\n' });
    expect((await agent.call('read_text_file', { path: 'calm.txt' })).structuredContent).toMatchObject({ content: 'agent calm\n' });
  });
});
