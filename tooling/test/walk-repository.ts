import { existsSync, lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ALWAYS_SKIPPED = ['node_modules', 'dist', '.git', '.turbo', 'results', 'coverage'];

// What the clone ignores is not the repository's: the demo's workspace, test output, bench scratch.
// Only plain names and paths of .gitignore are read (no globs are needed for that list today).
function ignoredByGit(root: string): Set<string> {
  const file = join(root, '.gitignore');
  if (!existsSync(file)) return new Set();
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim().replace(/^\/|\/$/g, ''));
  return new Set(lines.filter((line) => line !== '' && !line.startsWith('#') && !/[*?[!]/.test(line)));
}

/**
 * The repository's files under `root` that `keep` accepts, found with lstat: a symbolic link is never
 * followed (the demo workspace's `escape` points at the system temp directory, and following it reads
 * whatever another program left there), and only regular files are returned.
 */
export function walkRepository(root: string, keep: (name: string) => boolean): string[] {
  const skipped = new Set([...ALWAYS_SKIPPED, ...ignoredByGit(root)]);
  const walk = (directory: string): string[] =>
    readdirSync(directory).flatMap((name) => {
      const path = join(directory, name);
      if (skipped.has(name) || skipped.has(relative(root, path))) return [];
      const status = lstatSync(path);
      if (status.isDirectory()) return walk(path);
      return status.isFile() && keep(name) ? [path] : [];
    });
  return walk(root);
}
