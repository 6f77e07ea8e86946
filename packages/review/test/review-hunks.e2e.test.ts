import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM } from './support/browser.js';
import { SHOTS, useReviewPage } from './support/review-page.js';

// docs/overlay.md, "Hunks": a person lands some hunks of a change, by mouse or by keyboard.

describe.skipIf(!HAVE_CHROMIUM)('hunks on the review page in headless Chromium', { timeout: 120_000 }, () => {
  const scene = useReviewPage();

  it('lands the hunks checked by mouse, previews a merge where the disk moved, and takes hunks by keyboard', async () => {
    const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index}\n`).join('');
    const edit = (text: string, changes: Record<number, string>) =>
      text
        .split('\n')
        .map((line, index) => changes[index] ?? line)
        .join('\n');
    const base = lines(40);
    writeFileSync(join(scene.fixture.root, 'long.txt'), base);
    await scene.fixture.agentWrites('long.txt', edit(base, { 3: 'agent 3', 20: 'agent 20', 35: 'agent 35' }));
    await scene.page.reload();
    await scene.page.getByText('6 changes').waitFor();
    await scene.page.getByRole('button', { name: 'Show the diff of long.txt' }).click();
    // By mouse: hunk 3 alone lands; hunks 1 and 2 stay in the overlay.
    await scene.page.getByRole('checkbox', { name: 'Hunk 3 of long.txt' }).click();
    await scene.page.screenshot({ path: join(SHOTS, 'review-hunks.png'), fullPage: true });
    await scene.page.getByRole('button', { name: 'Apply checked hunks' }).click();
    await scene.page.getByText('Applied 1 change.').waitFor();
    const onDisk = () => readFileSync(join(scene.fixture.root, 'long.txt'), 'utf8');
    expect(onDisk()).toBe(edit(base, { 35: 'agent 35' }));
    // The person edits near hunk 1: the diff shows the agent's hunks, which overlap, and the merged preview.
    writeFileSync(join(scene.fixture.root, 'long.txt'), edit(base, { 4: 'person 4', 35: 'agent 35' }));
    await scene.page.getByRole('button', { name: 'Show the diff of long.txt' }).click();
    await scene.page.getByText('# merge: hunks 1 overlap your edits (overlapping_edit) and would stay; hunks 2 land').waitFor();
    expect(await scene.page.locator('#diff-view').textContent()).toContain('+++ merged/long.txt');
    await scene.page.screenshot({ path: join(SHOTS, 'review-merged.png'), fullPage: true });
    // By keyboard: check hunk 2 with Space, go back to the apply button, press Enter.
    await scene.page.getByRole('checkbox', { name: 'Hunk 2 of long.txt' }).focus();
    await scene.page.keyboard.press('Space');
    await scene.page.getByRole('button', { name: 'Apply checked hunks' }).focus();
    await scene.page.keyboard.press('Enter');
    await scene.page.getByText('Applied 1 change.').waitFor();
    expect(onDisk()).toBe(edit(base, { 4: 'person 4', 20: 'agent 20', 35: 'agent 35' }));
    // Hunk 1 overlaps the person's line: checked and applied, it is a conflict by number, and the disk keeps theirs.
    await scene.page.getByRole('button', { name: 'Show the diff of long.txt' }).click();
    await scene.page.getByRole('checkbox', { name: 'Hunk 1 of long.txt' }).click();
    await scene.page.getByRole('button', { name: 'Apply checked hunks' }).click();
    await scene.page.getByRole('alert').getByText('long.txt').waitFor();
    expect(await scene.page.getByRole('alert').textContent()).toContain('(hunks 1)');
    expect(onDisk()).toBe(edit(base, { 4: 'person 4', 20: 'agent 20', 35: 'agent 35' }));
    await scene.page.screenshot({ path: join(SHOTS, 'review-hunk-conflict.png'), fullPage: true });
  });
});
