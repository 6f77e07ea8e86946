import { readFileSync } from 'node:fs';

/** A file the page is made of, served as is. */
export interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

const FILES: readonly (readonly [route: string, file: string, type: string])[] = [
  ['/', 'index.html', 'text/html; charset=utf-8'],
  ['/review.css', 'review.css', 'text/css; charset=utf-8'],
  ['/review.js', 'review.js', 'text/javascript; charset=utf-8'],
  ['/review-format.js', 'review-format.js', 'text/javascript; charset=utf-8'],
  ['/review-shown.js', 'review-shown.js', 'text/javascript; charset=utf-8'],
  ['/review-hunks.js', 'review-hunks.js', 'text/javascript; charset=utf-8'],
  ['/review-api.js', 'review-api.js', 'text/javascript; charset=utf-8'],
  ['/review-approvals.js', 'review-approvals.js', 'text/javascript; charset=utf-8'],
  ['/favicon.svg', 'favicon.svg', 'image/svg+xml'],
];

/**
 * The page's files, read once from the package's `assets` folder (shipped in the package, beside
 * `src` and `dist` alike): nothing is ever loaded from another host.
 */
export function loadAssets(): ReadonlyMap<string, Asset> {
  const folder = new URL('../assets/', import.meta.url);
  return new Map(FILES.map(([route, file, type]) => [route, { body: readFileSync(new URL(file, folder)), type }]));
}
