import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type ReviewServer, type ReviewServerOptions, startReviewServer } from '../../src/index.js';
import { launchChromium } from './browser.js';
import { openReviewFixture, type ReviewFixture } from './review-fixture.js';

/** Screenshots for a person to look at; written by every run, never committed (see .gitignore). */
export const SHOTS = join(import.meta.dirname, '..', '..', 'test-output');

/** What each test of a page suite works with, set anew before each test. */
export interface ReviewScene {
  browser: Browser;
  fixture: ReviewFixture;
  server: ReviewServer;
  page: Page;
}

/**
 * The hooks of a suite of page tests: one Chromium for the suite; before each test the fixture's
 * workspace, a review server over it (with `options(fixture)` added) and a page opened on its
 * address, ready once `ready` shows; all closed after each test.
 */
export function useReviewPage(
  options: (fixture: ReviewFixture) => Promise<Partial<ReviewServerOptions>> = async () => ({}),
  ready = '5 changes',
): ReviewScene {
  const scene = {} as ReviewScene;
  beforeAll(async () => {
    scene.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  }, 180_000);
  afterAll(async () => {
    await scene.browser?.close();
  });
  beforeEach(async () => {
    scene.fixture = await openReviewFixture();
    scene.server = await startReviewServer({ operations: scene.fixture.overlay, ...(await options(scene.fixture)) });
    scene.page = await scene.browser.newPage({ viewport: { width: 1400, height: 900 } });
    scene.page.on('dialog', (dialog) => void dialog.accept());
    await scene.page.goto(scene.server.url);
    await scene.page.getByText(ready).first().waitFor();
  }, 120_000);
  afterEach(async () => {
    await scene.page?.close();
    await scene.server?.close();
    await scene.fixture?.close();
  });
  return scene;
}
