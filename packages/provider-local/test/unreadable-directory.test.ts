import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleChild } from './child-bundle.js';
import type { ChildBundle } from './child-bundle.js';

// A directory the provider's user may write but not read (0o333) cannot be opened to fsync. The
// bytes are flushed before the rename, so the write must stand instead of failing after the fact.
// Only root can run the provider as another user. The child runs a bundle of the sources placed in
// a world-readable temp directory, so the test passes wherever the repository is cloned (a 0700
// home included), with or without a build.
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
let child: ChildBundle | undefined;

beforeAll(async () => {
  if (isRoot) child = await bundleChild('write-as-nobody');
});
afterAll(() => child?.remove());

it.skipIf(!isRoot)('writes into a write-only directory as a non-root user succeed (needs root to run a child as nobody)', () => {
  const base = mkdtempSync(join(tmpdir(), 'libos-unreadable-'));
  try {
    const root = join(base, 'workspace');
    mkdirSync(join(root, 'drop'), { recursive: true });
    chmodSync(base, 0o755);
    chownSync(root, NOBODY, NOBODY);
    chownSync(join(root, 'drop'), NOBODY, NOBODY);
    chmodSync(join(root, 'drop'), 0o333);
    const output = execFileSync(process.execPath, [child?.file ?? '', root], { uid: NOBODY, gid: NOBODY, encoding: 'utf8', cwd: '/' });
    expect(JSON.parse(output)).toEqual([{ created: true }, { created: false }]);
    expect(readFileSync(join(root, 'drop', 'note.txt'), 'utf8')).toBe('second');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
