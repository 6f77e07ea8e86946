import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';

// libos diff numbers hunks, apply --hunks lands some, a person's edit merges, --no-merge refuses,
// and libos fork makes a second overlay whose apply merges onto the first's (docs/overlay.md).
let base: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let state: string;
const text = Array.from({ length: 30 }, (_, index) => `line ${index}\n`).join('');
const edit = (changes: Record<number, string>, from = text) =>
  from
    .split('\n')
    .map((line, index) => changes[index] ?? line)
    .join('\n');
beforeEach(async () => {
  base = await temporaryDirectory('libos-merge-');
  root = join(base.path, 'project');
  state = join(base.path, 'review.overlay');
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'a.txt'), text);
});
afterEach(async () => {
  await base?.remove();
});

const on = (overlay = state) => ['--root', root, '--overlay', overlay];

describe('libos apply by hunk, merged, and forks', () => {
  it('numbers hunks, lands the ones named, merges onto the person, and a fork merges onto the first', async () => {
    const write = await runLibos([
      'call',
      'write_text_file',
      JSON.stringify({ path: 'a.txt', content: edit({ 2: 'agent 2', 20: 'agent 20' }) }),
      ...on(),
    ]);
    expect(write.status, write.stderr).toBe(0);
    const diff = await runLibos(['diff', ...on()]);
    expect(diff.stdout.split('\n').filter((line) => line.startsWith('@@'))).toEqual(['@@ -1,6 +1,6 @@ #1', '@@ -18,7 +18,7 @@ #2']);
    const version = /# version (c-[0-9a-f]{32}) a\.txt/u.exec(diff.stdout)?.[1] as string;
    const fork = await runLibos(['fork', '--to', join(base.path, 'second.overlay'), ...on()]);
    expect(JSON.parse(fork.stdout)).toEqual({ state: join(base.path, 'second.overlay'), changes: 1 });

    const refused = await runLibos(['apply', 'a.txt', '--hunks', '2', ...on()]);
    expect(refused.status).toBe(2);
    const some = await runLibos(['apply', 'a.txt', '--hunks', '2', '--shown', version, ...on()]);
    expect(some.status, some.stderr).toBe(0);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe(edit({ 20: 'agent 20' }));

    // The person edits line 10; --no-merge refuses the file, a plain apply merges hunk 1 beside it.
    await writeFile(join(root, 'a.txt'), edit({ 10: 'person 10', 20: 'agent 20' }));
    expect((await runLibos(['apply', '--no-merge', ...on()])).status).toBe(3);
    const merged = await runLibos(['apply', ...on()]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe(edit({ 2: 'agent 2', 10: 'person 10', 20: 'agent 20' }));

    // The fork's change merges onto all of that: its hunks are on disk already, so nothing doubles.
    const second = on(join(base.path, 'second.overlay'));
    const changes = JSON.parse((await runLibos(['changes', ...second])).stdout) as { changes: Array<{ disk?: unknown }> };
    expect(changes.changes[0]?.disk).toEqual({ state: 'merges' });
    expect((await runLibos(['apply', ...second])).status).toBe(0);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe(edit({ 2: 'agent 2', 10: 'person 10', 20: 'agent 20' }));
  });

  it('--audit records a fork and an apply by hunk, each in a session of its own, through auditOverlay', async () => {
    const write = await runLibos([
      'call',
      'write_text_file',
      JSON.stringify({ path: 'a.txt', content: edit({ 2: 'agent 2', 20: 'agent 20' }) }),
      ...on(),
    ]);
    expect(write.status, write.stderr).toBe(0);
    const audit = join(base.path, 'audit.log');
    const diff = await runLibos(['diff', ...on()]);
    const version = /# version (c-[0-9a-f]{32}) a\.txt/u.exec(diff.stdout)?.[1] as string;
    const fork = await runLibos(['fork', '--to', join(base.path, 'second.overlay'), '--audit', audit, ...on()]);
    expect(fork.status, fork.stderr).toBe(0);
    const some = await runLibos(['apply', 'a.txt', '--hunks', '2', '--shown', version, '--audit', audit, ...on()]);
    expect(some.status, some.stderr).toBe(0);
    const records = (await readFile(audit, 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { tool?: string; paths?: string[] });
    const operations = records.filter((record) => record.tool === 'fork' || record.tool === 'apply');
    expect(operations.map((record) => [record.tool, record.paths])).toEqual([
      ['fork', []],
      ['apply', ['a.txt']],
    ]);
  });
});
