import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';

// A person's commands never create what they were asked to read, and an overlay state answers
// only for the root it belongs to (docs/overlay.md, "The state").
let base: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let state: string;
beforeEach(async () => {
  base = await temporaryDirectory('libos-person-args-');
  root = join(base.path, 'project');
  state = join(base.path, 'review.overlay');
  await mkdir(root);
  await writeFile(join(root, 'a.txt'), 'alpha\n');
});
afterEach(async () => {
  await base?.remove();
});

const agent = (tool: string, args: unknown) => runLibos(['call', tool, JSON.stringify(args), '--root', root, '--overlay', state]);

describe("a person's command and its arguments", () => {
  it('refuses a mistyped --overlay with one sentence naming it, and creates no file', async () => {
    expect((await agent('write_text_file', { path: 'b.txt', content: 'b\n' })).status).toBe(0);
    const typo = join(base.path, 'reveiw.overlay');
    for (const command of [['changes'], ['diff'], ['apply'], ['discard'], ['undo-apply', 'a-1'], ['history'], ['rewind', '0']]) {
      const run = await runLibos([...command, '--root', root, '--overlay', typo]);
      expect(run.status, `${command[0]}: ${run.stderr}`).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(typo);
      expect(run.stderr).toContain('No such state file');
      expect(existsSync(typo), command[0]).toBe(false);
    }
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('alpha\n');
    await expect(readFile(join(root, 'b.txt'))).rejects.toThrow();
  });

  it('refuses a state under another --root, even one holding the same files, and applies nothing there', async () => {
    expect((await agent('write_text_file', { path: 'new.txt', content: 'agent\n' })).status).toBe(0);
    const other = join(base.path, 'unrelated');
    await mkdir(other);
    await writeFile(join(other, 'a.txt'), 'alpha\n');
    for (const command of [['apply'], ['changes'], ['discard']]) {
      const run = await runLibos([...command, '--root', other, '--overlay', state]);
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(`belongs to the root ${root}`);
      expect(run.stderr).toContain(`--root ${root}`);
    }
    expect(await readdir(other)).toEqual(['a.txt']);
    // The same path string over a different directory (the project replaced) is refused too.
    await rename(root, join(base.path, 'moved-away'));
    await mkdir(root);
    const replaced = await runLibos(['apply', '--root', root, '--overlay', state]);
    expect(replaced.status).toBe(2);
    // One sentence that says what happened, not "belongs to X, not X: pass --root X".
    expect(replaced.stderr.trim().split('\n')).toHaveLength(1);
    expect(replaced.stderr).toContain(`The directory at ${root} is not the one this overlay state belongs to`);
    expect(replaced.stderr).not.toContain(`--root ${root}`);
    expect(await readdir(root)).toEqual([]);
    // The directory itself, under its new name, is the state's root: the agent's work is all there.
    const moved = await runLibos(['changes', '--root', join(base.path, 'moved-away'), '--overlay', state]);
    expect(moved.status, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ changes: [{ path: 'new.txt', change: 'added' }] });
  });
});
