// The repository walk the references test reads: a link in the clone (the demo's `escape` points at the
// system temp directory) is never followed, and what the clone ignores is not read.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { walkRepository } from './walk-repository.js';

const bases: string[] = [];
afterEach(() => {
  for (const base of bases.splice(0)) rmSync(base, { recursive: true, force: true });
});

function clone(): { root: string; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'libos-walk-'));
  bases.push(base);
  const root = join(base, 'clone');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(join(outside, 'deep'), { recursive: true });
  writeFileSync(join(root, 'docs', 'real.md'), 'in the repository');
  writeFileSync(join(outside, 'secret.md'), 'not the repository');
  writeFileSync(join(outside, 'deep', 'more.ts'), 'not the repository');
  // What another program leaves in a temp directory: a FIFO blocks forever when read.
  execFileSync('mkfifo', [join(outside, 'trap.md')]);
  return { root, outside };
}

const markdown = (name: string) => /\.(md|ts)$/.test(name);

describe('walkRepository', () => {
  it('never follows a link out of the repository, to a directory or to a file', () => {
    const { root, outside } = clone();
    mkdirSync(join(root, 'workspace'));
    symlinkSync(outside, join(root, 'workspace', 'escape'));
    symlinkSync(join(outside, 'secret.md'), join(root, 'docs', 'linked.md'));
    symlinkSync(join(outside, 'trap.md'), join(root, 'docs', 'trap.md'));
    expect(walkRepository(root, markdown).map((path) => relative(root, path))).toEqual(['docs/real.md']);
  });

  it('skips what the clone ignores, as the demo workspace is', () => {
    const { root, outside } = clone();
    writeFileSync(join(root, '.gitignore'), 'node_modules\ndemo-workspace\n/packages/review/test-output/\n*.log\n');
    mkdirSync(join(root, 'demo-workspace', 'docs'), { recursive: true });
    writeFileSync(join(root, 'demo-workspace', 'docs', 'notes.md'), 'a person wrote this in the demo');
    mkdirSync(join(root, 'packages', 'review', 'test-output'), { recursive: true });
    writeFileSync(join(root, 'packages', 'review', 'test-output', 'page.md'), 'output');
    symlinkSync(outside, join(root, 'demo-workspace', 'escape'));
    expect(walkRepository(root, markdown).map((path) => relative(root, path))).toEqual(['docs/real.md']);
  });

  it('the demo workspace of `pnpm demo` is ignored by the clone', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const script = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.demo as string;
    const workspace = script.match(/libos demo (\S+)/)?.[1];
    expect(workspace).toBeDefined();
    expect(readFileSync(join(root, '.gitignore'), 'utf8').split('\n')).toContain(workspace);
  });
});
