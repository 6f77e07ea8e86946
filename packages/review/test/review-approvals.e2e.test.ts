import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigInput } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { ApprovalDirectory, createDirectoryApprover, createRuntime, type Runtime } from '@libos/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReviewServer } from '../src/index.js';
import { HAVE_CHROMIUM } from './support/browser.js';
import { SHOTS, useReviewPage } from './support/review-page.js';

// docs/mcp.md, "Pending approvals": a call from a client without elicitation waits for the
// person, who answers it on the review page.

const ASK_WRITES: ConfigInput = {
  grants: [
    { path: '.', tree: true, rights: ['read'] },
    { path: '.', tree: true, rights: ['write'], mode: 'ask' },
  ],
};
const HOSTILE = 'inv\u202Eoice\u0007.txt';

describe.skipIf(!HAVE_CHROMIUM)('pending approvals on the review page in headless Chromium', { timeout: 120_000 }, () => {
  let base: string;
  let directory: ApprovalDirectory;
  let agent: Runtime;
  beforeEach(async () => {
    base = mkdtempSync(join(tmpdir(), 'libos-review-approvals-'));
    directory = await ApprovalDirectory.open(join(base, 'approvals'));
    const approver = createDirectoryApprover(directory, { pollMs: 20, waitMs: 60_000 });
    mkdirSync(join(base, 'workspace'));
    agent = await createRuntime({ provider: createLocalProvider({ root: join(base, 'workspace') }), config: ASK_WRITES, approver });
  });
  afterEach(async () => {
    await agent?.close();
    rmSync(base, { recursive: true, force: true });
  });
  const scene = useReviewPage(async () => ({ approvals: directory }));
  const section = () => scene.page.getByRole('region', { name: /Pending approvals/u });

  it('lists the waiting call with its escaped text; Approve lands exactly it, Reject (by keyboard) refuses the next', async () => {
    const { page } = scene;
    await section().getByText('No call is waiting for approval.').waitFor();
    const process = agent.spawn();
    const first = process.call('write_text_file', { path: HOSTILE, content: 'line one\nline \u202Etwo\n' });
    await section()
      .getByRole('button', { name: /^Approve request / })
      .waitFor();
    const text = await section().locator('.approval-text').textContent();
    expect(text).toContain('"inv\\u{202E}oice\\u{0007}.txt"');
    expect(text).toContain('It would write 21 bytes (SHA-256 ');
    expect(text).toContain('  | line \\u{202E}two');
    expect(text).not.toMatch(/[\u202E\u0007]/u);
    expect(await page.getByRole('heading', { name: 'Pending approvals (1)' }).isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'review-approvals.png'), fullPage: true });
    await section()
      .getByRole('button', { name: /^Approve request / })
      .click();
    expect((await first).ok).toBe(true);
    await page.getByText(/^Approved request [0-9a-f]{16}/u).waitFor();
    await section().getByText('No call is waiting for approval.').waitFor();
    // Other bytes to the same path: a new request, answered by keyboard alone.
    const second = process.call('write_text_file', { path: HOSTILE, content: 'other bytes', overwrite: true });
    await section()
      .getByRole('button', { name: /^Reject request / })
      .focus();
    await page.keyboard.press('Enter');
    const refused = await second;
    expect(refused.ok === false && refused.error.code).toBe('approval_rejected');
    const read = await process.call('read_text_file', { path: HOSTILE });
    expect(read.ok && read.result.content).toBe('line one\nline \u202Etwo\n');
  });

  it('refuses an answer to a call that stopped waiting, and serves approvals alone without an overlay', async () => {
    const process = agent.spawn();
    const controller = new AbortController();
    const call = process.call('write_text_file', { path: 'a.txt', content: 'x' }, { signal: controller.signal });
    const listed = await scene.page.waitForResponse((response) => response.url().endsWith('/api/approvals') && response.status() === 200);
    await section()
      .getByRole('button', { name: /^Approve request / })
      .waitFor();
    // The page keeps showing the request (its list is held as it was) while the call stops waiting.
    const stale = await listed.json();
    await scene.page.route('**/api/approvals', (route) => route.fulfill({ json: stale }));
    controller.abort();
    expect((await call).ok).toBe(false);
    await section()
      .getByRole('button', { name: /^Approve request / })
      .click();
    await scene.page.getByText(/No call waits on approval [0-9a-f]{16}/u).waitFor();
    // `libos review --approvals DIR` alone: the page answers approvals only.
    const alone = await startReviewServer({ approvals: directory });
    const page = await scene.browser.newPage({ viewport: { width: 700, height: 700 } });
    try {
      await page.goto(alone.url);
      await page.getByText('No overlay: this page lists the calls waiting for your approval.').waitFor();
      const waiting = process.call('write_text_file', { path: 'b.txt', content: 'y' });
      await page.getByRole('button', { name: /^Approve request / }).waitFor();
      expect(await page.getByRole('button', { name: 'Apply all' }).isVisible()).toBe(false);
      await page.screenshot({ path: join(SHOTS, 'review-approvals-alone.png'), fullPage: true });
      await page.getByRole('button', { name: /^Approve request / }).click();
      expect((await waiting).ok).toBe(true);
      await page.getByText('No call is waiting for approval.').waitFor({ timeout: 10_000 });
    } finally {
      await page.close();
      await alone.close();
    }
  });
});
