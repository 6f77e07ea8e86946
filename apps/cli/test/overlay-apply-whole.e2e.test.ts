import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';

// `libos apply` with no paths lands everything or nothing, and a conflict shows both versions.
let base: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let state: string;
beforeEach(async () => {
  base = await temporaryDirectory('libos-apply-whole-');
  root = join(base.path, 'project');
  state = join(base.path, 'review.overlay');
  await mkdir(join(root, 'lib'), { recursive: true });
  await writeFile(join(root, 'lib', 'util.js'), 'export const one = 1;\n');
  await writeFile(join(root, 'main.js'), "import { one } from './lib/util.js';\nconsole.log(one);\n");
});
afterEach(async () => {
  await base?.remove();
});

const on = () => ['--root', root, '--overlay', state];
const agent = (tool: string, args: unknown) => runLibos(['call', tool, JSON.stringify(args), ...on()]);

describe('libos apply, everything at once', () => {
  it('lands nothing when one file conflicts, shows yours against the agent’s as a diff, and says how to resolve it', async () => {
    // The agent renames the module and updates its importer: the two only work together.
    expect((await agent('write_text_file', { path: 'lib/helpers.js', content: 'export const one = 1;\n' })).status).toBe(0);
    expect((await agent('delete_file', { path: 'lib/util.js' })).status).toBe(0);
    expect(
      (await agent('write_text_file', { path: 'main.js', content: "import { one } from './lib/helpers.js';\nconsole.log(one);\n" })).status,
    ).toBe(0);
    // Meanwhile the person edits the importer; the edit carries a terminal escape sequence.
    await writeFile(join(root, 'main.js'), "import { one } from './lib/util.js';\nconsole.log(one, '\u001b[2J');\n");

    const apply = await runLibos(['apply', ...on()]);
    expect(apply.status, apply.stderr).toBe(3);
    expect(JSON.parse(apply.stdout)).toMatchObject({ apply_id: null, applied: [], conflicts: [{ path: 'main.js', reason: 'overlapping_edit' }] });
    // Nothing landed: the project still loads as the person left it.
    expect(await readFile(join(root, 'lib', 'util.js'), 'utf8')).toBe('export const one = 1;\n');
    await expect(readFile(join(root, 'lib', 'helpers.js'))).rejects.toThrow();
    // The person's version against the agent's, escaped, and what to do.
    expect(apply.stderr).toContain('# conflict main.js (overlapping_edit)');
    expect(apply.stderr).toContain("-import { one } from './lib/util.js';");
    expect(apply.stderr).toContain("+import { one } from './lib/helpers.js';");
    expect(apply.stderr).toContain("-console.log(one, '\\u{001B}[2J');");
    expect(apply.stderr).not.toContain('\u001b');
    expect(apply.stderr).toContain('keep yours: libos discard main.js');
    expect(apply.stderr).toContain('libos apply --per-file');
    expect(apply.stderr).not.toMatch(/[0-9a-f]{64}/u);

    // Landing file by file is what the person asks for by name.
    const perFile = await runLibos(['apply', '--per-file', ...on()]);
    expect(perFile.status).toBe(3);
    expect(JSON.parse(perFile.stdout)).toMatchObject({ applied: ['lib/helpers.js', 'lib/util.js'], conflicts: [{ path: 'main.js' }] });
    expect(await readFile(join(root, 'lib', 'helpers.js'), 'utf8')).toBe('export const one = 1;\n');
  });

  it('applies named paths one by one as before, and refuses --per-file with --all-or-nothing', async () => {
    await agent('write_text_file', { path: 'a.txt', content: 'a\n' });
    await agent('write_text_file', { path: 'main.js', content: 'agent\n' });
    await writeFile(join(root, 'main.js'), 'person\n');
    const named = await runLibos(['apply', 'a.txt', 'main.js', ...on()]);
    expect(named.status).toBe(3);
    expect(JSON.parse(named.stdout)).toMatchObject({ applied: ['a.txt'], conflicts: [{ path: 'main.js' }] });
    expect(named.stderr).toContain('-person\n+agent');
    const both = await runLibos(['apply', '--per-file', '--all-or-nothing', ...on()]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('exclude each other');
  });
});
