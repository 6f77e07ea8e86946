import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** A fresh temporary directory with `root` (the workspace) and `index` (the index) side by side, removed after the test. */
export function sandbox(): { root: string; index: string } {
  const base = mkdtempSync(join(tmpdir(), 'libos-search-index-'));
  afterEach(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'root');
  rmSync(root, { force: true });
  return { root, index: join(base, 'index') };
}
