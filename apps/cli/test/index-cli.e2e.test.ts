import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
beforeAll(async () => {
  scratch = await temporaryDirectory('libos-index-cli-');
  root = join(scratch.path, 'workspace');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src', 'a.ts'), 'const needle = 1;\n');
  await writeFile(join(root, 'src', 'b.ts'), 'const hay = 2;\n');
});

describe('libos --index DIR', () => {
  it('answers a search from the index, and leaves the index in DIR at exit', async () => {
    const index = join(scratch.path, 'index');
    for (let run = 0; run < 2; run++) {
      const searched = await runLibos(['call', 'search_files', '{"path":".","query":"needle"}', '--root', root, '--index', index]);
      expect(searched.status).toBe(0);
      expect(JSON.parse(searched.stdout)).toMatchObject({
        ok: true,
        result: { count: 1, files_searched: 2, matches: [{ path: 'src/a.ts', line: 1 }] },
      });
    }
    expect((await stat(join(index, 'index.bin'))).size).toBeGreaterThan(0);
  });

  it('refuses DIR inside the root, and a workspace it cannot watch, with exit 2 and one line', async () => {
    const inside = await runLibos(['call', 'search_files', '{"path":".","query":"needle"}', '--root', root, '--index', join(root, 'src', '.index')]);
    expect({ status: inside.status, lines: inside.stderr.trim().split('\n').length }).toEqual({ status: 2, lines: 1 });
    expect(inside.stderr).toContain('--index');
    expect(inside.stderr).toContain('is inside the served directory');
    await expect(stat(join(root, 'src', '.index'))).rejects.toThrow();
    const mounted = await runLibos([
      'call',
      'search_files',
      '{"path":".","query":"needle"}',
      '--mount',
      `w=${root}`,
      '--index',
      join(scratch.path, 'i2'),
    ]);
    expect({ status: mounted.status, lines: mounted.stderr.trim().split('\n').length }).toEqual({ status: 2, lines: 1 });
    expect(mounted.stderr).toContain('--index needs a workspace served from one host directory');
  });
});
