import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRuntime } from '@libos/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalTestbed, type Sandbox } from './local-testbed.js';

// Names and patterns chosen to meet every rule: nesting, negation, directory-only, anchoring,
// `**` in each position, classes, `?`, escapes, comments, trailing spaces, CRLF.
const DIRECTORIES = ['a', 'b', 'src', 'build', 'node_modules', 'lib', 'docs', 'x y', 'deep'];
const FILES = ['a.log', 'b.txt', 'keep.log', 'x.gen.ts', 'main.ts', 'README.md', '.env', '#notes', '!bang', 'foo[1].txt', 'c.md', 'z~', 'trail '];
const PATTERNS = [
  '*.log',
  '!keep.log',
  'build/',
  '/build',
  'a/**/b',
  '**/lib',
  '*.ts',
  '!main.ts',
  'src/*',
  '!src/a',
  '# a comment',
  '\\#notes',
  '\\!bang',
  '[ab].txt',
  '[!a]*.md',
  '?.log',
  '**/*.gen.ts',
  'a/',
  'node_modules',
  'docs/**',
  '*~',
  'foo\\[1\\].txt',
  'lib/**',
  '/a/b/',
  'b/*.txt',
  '.env',
  '!.env',
  'deep/**/c.md',
  '!docs/c.md',
  'x y/',
  'trail\\ ',
  '*.md   ',
  '',
  '[[:upper:]]*',
  '!*/',
  'a/*/*.log',
  '**',
  '!b',
];

function randomSource(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % below;
  };
}

// A tree 3 levels deep with a file in every directory (so an ignored directory shows in the file
// list) and a .gitignore of random patterns in some directories; returns every file path.
function generate(root: string, seed: number): string[] {
  const random = randomSource(seed);
  const files: string[] = [];
  const fill = (directory: string, depth: number) => {
    const names = new Set<string>();
    for (let count = 0; count < 3; count++) names.add(FILES[random(FILES.length)]!);
    for (const name of names) {
      writeFileSync(join(root, directory, name), 'token\n');
      files.push(directory === '' ? name : `${directory}/${name}`);
    }
    if (random(3) !== 0) {
      const lines = Array.from({ length: 2 + random(8) }, () => PATTERNS[random(PATTERNS.length)]!);
      writeFileSync(join(root, directory, '.gitignore'), lines.join(random(4) === 0 ? '\r\n' : '\n'));
      files.push(directory === '' ? '.gitignore' : `${directory}/.gitignore`);
    }
    if (depth === 3) return;
    for (let count = 0; count < 2 + random(2); count++) {
      const name = DIRECTORIES[random(DIRECTORIES.length)]!;
      const child = directory === '' ? name : `${directory}/${name}`;
      if (files.some((file) => file === child)) continue;
      mkdirSync(join(root, child), { recursive: true });
      fill(child, depth + 1);
    }
  };
  fill('', 0);
  return [...new Set(files)];
}

// The files git itself would not ignore: `check-ignore` prints the ignored ones, a file below an
// ignored directory included.
function gitKept(root: string, files: readonly string[]): string[] {
  let ignored = '';
  try {
    ignored = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: root, input: files.join('\n'), encoding: 'utf8' });
  } catch (error) {
    // Exit status 1: nothing is ignored.
    if ((error as { status?: number }).status !== 1) throw error;
  }
  const out = new Set(ignored.split('\n').filter((line) => line !== ''));
  return files.filter((file) => !out.has(file)).sort();
}

describe('the .gitignore rules agree with git check-ignore', () => {
  let sandbox: Sandbox | undefined;
  afterEach(() => sandbox?.remove());

  it('on every file of generated trees with many patterns', async () => {
    const rounds = process.env.LIBOS_STRESS === '1' ? 40 : 12; // more under pnpm test:stress
    for (let seed = 1; seed <= rounds; seed++) {
      const bed = createLocalTestbed();
      sandbox = bed.sandbox;
      execFileSync('git', ['init', '-q'], { cwd: bed.sandbox.root });
      const files = generate(bed.sandbox.root, seed);
      const runtime = await createRuntime({ provider: bed.provider });
      const outcome = await runtime.spawn().call('find_files', { path: '.', glob: '**', max_results: 1000 });
      expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
      const listed = (outcome as { result: { files: { path: string }[]; stopped: unknown } }).result;
      expect(listed.stopped).toBeNull();
      const ours = listed.files.map((file) => file.path).sort();
      const kept = gitKept(bed.sandbox.root, files);
      expect(ours, `seed ${seed}`).toEqual(kept);
      await runtime.close();
      bed.sandbox.remove();
      sandbox = undefined;
    }
  }, 240_000);
});
