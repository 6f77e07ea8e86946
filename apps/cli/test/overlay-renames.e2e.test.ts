import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';

// docs/overlay.md, "Renames": a move_file is one rename in libos changes, diff and apply.

let base: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let state: string;
beforeEach(async () => {
  base = await temporaryDirectory('libos-overlay-renames-');
  root = join(base.path, 'workspace');
  state = join(base.path, 'review.overlay');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src/util.ts'), 'export const one = 1;\nexport const two = 2;\n');
});
afterEach(async () => {
  await base?.remove();
});

const on = () => ['--root', root, '--overlay', state];
const agent = async (tool: string, args: unknown) => expect((await runLibos(['call', tool, JSON.stringify(args), ...on()])).status).toBe(0);
const versionsIn = (diff: string) =>
  [...diff.matchAll(/^# version (c-[0-9a-f]{32}) (.*)$/gmu)].map((match) => [String(match[2]), String(match[1])] as const);

describe('libos changes, diff and apply on a moved file', () => {
  it('shows the move as a rename with the edit, and lands it whole only with both versions shown', async () => {
    await agent('move_file', { from: 'src/util.ts', to: 'src/math.ts' });
    await agent('edit_text_file', { path: 'src/math.ts', edits: [{ old_text: 'two = 2', new_text: 'two = 2.0' }] });
    const listed = JSON.parse((await runLibos(['changes', ...on()])).stdout) as {
      changes: { path: string; moved_from?: string; moved_to?: string }[];
    };
    expect(listed.changes.map(({ path, moved_from, moved_to }) => ({ path, moved_from, moved_to }))).toEqual([
      { path: 'src/math.ts', moved_from: 'src/util.ts', moved_to: undefined },
      { path: 'src/util.ts', moved_from: undefined, moved_to: 'src/math.ts' },
    ]);
    const diff = (await runLibos(['diff', 'src/math.ts', ...on()])).stdout;
    expect(diff).toContain(
      [
        'diff --git a/src/util.ts b/src/math.ts',
        'rename from src/util.ts',
        'rename to src/math.ts',
        '--- a/src/util.ts',
        '+++ b/src/math.ts',
        '@@ -1,2 +1,2 @@ #1',
        ' export const one = 1;',
        '-export const two = 2;',
        '+export const two = 2.0;',
      ].join('\n'),
    );
    const versions = new Map(versionsIn(diff));
    expect([...versions.keys()].sort()).toEqual(['src/math.ts', 'src/util.ts']);

    // Half of the rename shown: nothing lands, and stderr says why for each half.
    const half = await runLibos(['apply', 'src/math.ts', '--shown', versions.get('src/math.ts') as string, ...on()]);
    expect(half.status).toBe(3);
    expect(JSON.parse(half.stdout)).toMatchObject({ applied: [] });
    expect(half.stderr).toContain('src/math.ts is half of a rename whose other half could not land');
    expect(existsSync(join(root, 'src/math.ts'))).toBe(false);
    expect(existsSync(join(root, 'src/util.ts'))).toBe(true);

    const whole = await runLibos(['apply', 'src/util.ts', ...[...versions.values()].flatMap((version) => ['--shown', version]), ...on()]);
    expect(whole.status).toBe(0);
    expect(JSON.parse(whole.stdout).applied.sort()).toEqual(['src/math.ts', 'src/util.ts']);
    expect(await readFile(join(root, 'src/math.ts'), 'utf8')).toBe('export const one = 1;\nexport const two = 2.0;\n');
    expect(existsSync(join(root, 'src/util.ts'))).toBe(false);
  });
});
