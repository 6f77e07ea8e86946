import type { FileSystemProviderV1, ReadFileOptions, WorkspacePath } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { createTestbed } from './support/harness.js';
import { walkOnly } from './support/walk-only.js';

type Bed = Awaited<ReturnType<typeof createTestbed>>;

async function tree(bed: Bed, files: Record<string, string>) {
  for (const [path, content] of Object.entries(files)) await bed.fixtures.writeFile(path, content);
}

const paths = (result: Record<string, unknown>, key: 'matches' | 'files' = 'matches') => [
  ...new Set((result[key] as { path: string }[]).map((item) => item.path)),
];

const REPOSITORY = {
  '.gitignore': 'node_modules/\n*.log\n!keep.log\n/build\ndocs/**/draft.md\n',
  'node_modules/pkg/index.js': 'token',
  'src/app.ts': 'token',
  'src/app.log': 'token',
  'src/keep.log': 'token',
  'src/build/out.ts': 'token',
  'build/out.ts': 'token',
  'docs/a/b/draft.md': 'token',
  'docs/draft.md': 'token',
  'docs/notes.md': 'token',
  'src/.gitignore': '*.gen.ts\n!app.log\n',
  'src/x.gen.ts': 'token',
};

describe('search_files and find_files with .gitignore and exclude', () => {
  it('skips what git ignores: nested files, negation, directory-only, anchoring, **, an ignored directory not entered', async () => {
    const bed = await createTestbed();
    await tree(bed, REPOSITORY);
    const result = await bed.ok('search_files', { path: '.', query: 'token' });
    // src/.gitignore re-includes app.log below it; /build is anchored, so src/build stays.
    expect(paths(result)).toEqual(['docs/notes.md', 'src/app.log', 'src/app.ts', 'src/build/out.ts', 'src/keep.log']);
    // node_modules (a directory, not entered), build, both draft.md (`/**/` spans zero directories too), the generated source file
    expect(result).toMatchObject({ skipped_ignored: 5, stopped: null, truncated: false, partial_files: 0 });
    const all = await bed.ok('search_files', { path: '.', query: 'token', respect_gitignore: false });
    expect(paths(all)).toHaveLength(10);
    expect(all.skipped_ignored).toBe(0);
  });

  it("applies the .gitignore files of the search root's ancestors, relative to their own directory", async () => {
    const bed = await createTestbed();
    await tree(bed, REPOSITORY);
    const result = await bed.ok('search_files', { path: 'src', query: 'token' });
    expect(paths(result)).toEqual(['src/app.log', 'src/app.ts', 'src/build/out.ts', 'src/keep.log']);
    const docs = await bed.ok('find_files', { path: 'docs', glob: '*.md' });
    expect(paths(docs, 'files')).toEqual(['docs/notes.md']);
  });

  it('skips exclude globs, files and whole directories, counted in skipped_ignored', async () => {
    const bed = await createTestbed();
    await tree(bed, { 'a/vendor/x.js': 'token', 'a/b.min.js': 'token', 'a/b.js': 'token', 'c/vendor.txt': 'token' });
    const result = await bed.ok('search_files', { path: '.', query: 'token', exclude: ['vendor', '*.min.js'] });
    expect(paths(result)).toEqual(['a/b.js', 'c/vendor.txt']);
    expect(result.skipped_ignored).toBe(2);
    expect(await bed.fail('search_files', { path: '.', query: 'x', exclude: ['[z'] })).toMatchObject({
      code: 'invalid_arguments',
      details: { issues: [{ path: 'exclude.0', code: 'invalid_pattern' }] },
    });
  });

  it('counts a file whose only match lies past max_bytes_per_file in partial_files: never a silent "nothing found"', async () => {
    const bed = await createTestbed();
    await tree(bed, { 'big.txt': `${'x'.repeat(100)}\nneedle\n`, 'small.txt': 'nothing\n' });
    const result = await bed.ok('search_files', { path: '.', query: 'needle', max_bytes_per_file: 50 });
    expect(result).toMatchObject({ count: 0, files_searched: 2, partial_files: 1, stopped: null });
    expect(await bed.ok('search_files', { path: '.', query: 'needle' })).toMatchObject({ count: 1, partial_files: 0 });
  });

  it('names what stopped the walk: max_results, max_files, result_bytes', async () => {
    const bed = await createTestbed({ config: { bounds: { result_max_bytes: 1000 } } });
    await tree(bed, Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`f${String(index).padStart(2, '0')}.txt`, 'token\n'])));
    expect(await bed.ok('search_files', { path: '.', query: 'token', max_results: 3 })).toMatchObject({
      count: 3,
      stopped: 'max_results',
      truncated: true,
    });
    expect(await bed.ok('search_files', { path: '.', query: 'token', max_files: 2 })).toMatchObject({
      count: 2,
      stopped: 'max_files',
      truncated: true,
    });
    expect(await bed.ok('search_files', { path: '.', query: 'token' })).toMatchObject({ stopped: 'result_bytes', truncated: true });
    expect(await bed.ok('find_files', { path: '.', glob: '*.txt', max_results: 5 })).toMatchObject({ count: 5, stopped: 'max_results' });
  });

  it('find_files lists regular files by glob with size and time, without opening them', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    let reads = 0;
    const counting: FileSystemProviderV1 = {
      ...provider,
      readFile: (path: WorkspacePath, options: ReadFileOptions) => {
        if (!path.endsWith('.gitignore')) reads++;
        return provider.readFile(path, options);
      },
    };
    await fixtures.writeFile('src/a.test.ts', '12345');
    await fixtures.writeFile('src/deep/b.test.ts', '');
    await fixtures.writeFile('src/c.ts', 'x');
    await fixtures.writeFile('.gitignore', 'ignored/\n');
    await fixtures.writeFile('ignored/d.test.ts', 'x');
    await fixtures.makeDirectory('src/dir.test.ts');
    const runtime = await createRuntime({ provider: counting });
    const outcome = await runtime.spawn().call('find_files', { path: '.', glob: '**/*.test.ts' });
    expect(outcome.ok).toBe(true);
    const result = (outcome as { result: { files: { path: string; size_bytes: number; modified_at: string }[] } }).result;
    expect(result).toMatchObject({ path: '.', count: 2, truncated: false, skipped_ignored: 1, stopped: null });
    expect(result.files.map((file) => [file.path, file.size_bytes])).toEqual([
      ['src/a.test.ts', 5],
      ['src/deep/b.test.ts', 0],
    ]);
    expect(result.files[0]!.modified_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/u);
    expect(reads).toBe(0);
  });

  it('honours deadline_ms against a provider that never answers: it ends at the deadline with what it found', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    await fixtures.writeFile('a/1.txt', 'token');
    await fixtures.writeFile('b/2.txt', 'token');
    // Reads under b/ hang for an hour unless their signal aborts; without `searchTree`, the walk reads each file itself.
    const slow: FileSystemProviderV1 = {
      ...walkOnly(provider),
      readFile: async (path: WorkspacePath, options: ReadFileOptions) => {
        if (path.startsWith('b/')) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 3_600_000);
            options.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
          });
        }
        return provider.readFile(path, options);
      },
    };
    const runtime = await createRuntime({ provider: slow });
    const agent = runtime.spawn();
    for (const [tool, args] of [
      ['search_files', { path: '.', query: 'token', deadline_ms: 300 }],
      ['find_files', { path: '.', glob: '*', deadline_ms: 300 }],
    ] as const) {
      const started = performance.now();
      // A timer armed with the same deadline: how late the answer comes after it, whatever the machine's load.
      let firedAt = 0;
      const sentinel = new Promise<void>((resolve) => setTimeout(() => ((firedAt = performance.now()), resolve()), 300));
      const outcome = await agent.call(tool, args as never);
      const answeredAt = performance.now();
      await sentinel;
      if (tool === 'search_files') {
        expect(outcome).toMatchObject({ ok: true, result: { count: 1, stopped: 'deadline', truncated: true, matches: [{ path: 'a/1.txt' }] } });
        expect(answeredAt - firedAt).toBeLessThan(100);
        expect(answeredAt - started).toBeGreaterThanOrEqual(290);
      } else {
        // Listing never reads, so the slow reads do not hold find_files up.
        expect(outcome).toMatchObject({ ok: true, result: { count: 2, stopped: null } });
      }
    }
  });
});
