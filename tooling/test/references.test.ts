// The repository is its own reference: no source comment or document cites a file that is not in
// it (the shared specification notes included), every package has its row in the README table, and
// every count of the tools matches the tools there are.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAIN_HELP } from '../../apps/cli/src/commands/help-texts.js';
import { OVERLAY_HELP } from '../../apps/cli/src/commands/overlay-help.js';
import { BUILTIN_TOOLS } from '../../packages/tools/src/tools/index.js';
import { walkRepository } from './walk-repository.js';
import { workspaceDependencies } from './workspace-dependencies.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const self = fileURLToPath(import.meta.url);
const files = walkRepository(root, (name) => /\.(ts|mjs|md)$/.test(name) || name === 'package.json').filter((path) => path !== self);

// Code cites in comments; test data in strings (a workspace's `docs/x.md`) is not a citation.
function citingText(path: string): string {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.md')) return text.replace(/```[\s\S]*?```/g, '');
  if (path.endsWith('package.json')) return String((JSON.parse(text) as { description?: unknown }).description ?? '');
  return [...text.matchAll(/(?<!\S)\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)].map((match) => match[0]).join('\n');
}

const texts = new Map(files.map((path) => [relative(root, path), citingText(path)]));
// The package a file belongs to, for paths written relative to it (`test/x.ts`).
const packageOf = (file: string): string | undefined => file.match(/^((?:packages|apps)\/[^/]+)\//)?.[1];
const trim = (path: string) => path.replace(/[.,:;)]+$/, '').replace(/#.*$/, '');
const placeholder = /[*<>{}$]|NAME|\.\.\.|…/;
// Pages another piece of work is writing now, cited ahead of it. An entry whose file exists fails
// the test, so the list only ever shrinks.
const pending = new Set<string>([]);

describe('citations', () => {
  it('never cite the specification notes outside the repository', () => {
    const citing = [...texts].filter(([, text]) => /\bCONTRACT(\.md)?\b|memfs\.md|shared\/design/.test(text)).map(([file]) => file);
    expect(citing).toEqual([]);
  });

  it('name only repository files that exist', () => {
    const missing: string[] = [];
    for (const [file, text] of texts) {
      for (const match of text.matchAll(/(?<![\w./@'"-])((?:docs|packages|apps|tooling)\/[\w./-]+)/g)) {
        const path = trim(match[1] ?? '');
        if (!placeholder.test(path) && !pending.has(path) && !existsSync(join(root, path))) missing.push(`${file}: ${path}`);
      }
      const home = packageOf(file);
      if (home !== undefined) {
        // Relative to the package, or (the shared `bench/`) to the repository.
        for (const match of text.matchAll(/(?<![\w./@'"-])((?:src|test|examples|bench)\/[\w./-]+\.(?:ts|mjs|md|json))/g)) {
          const path = trim(match[1] ?? '');
          if (placeholder.test(path) || existsSync(join(root, home, path)) || existsSync(join(root, path))) continue;
          missing.push(`${file}: ${path}`);
        }
      }
      if (file.endsWith('.md')) {
        for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
          const target = trim(match[1] ?? '');
          if (target === '' || /^[a-z]+:/.test(target)) continue;
          if (!existsSync(join(root, dirname(file), target))) missing.push(`${file}: ${target}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect([...pending].filter((path) => existsSync(join(root, path)))).toEqual([]);
  });
});

describe('tables and counts', () => {
  it('the README package table has a row for every package', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const packages = ['packages', 'apps'].flatMap((area) =>
      readdirSync(join(root, area))
        .filter((name) => existsSync(join(root, area, name, 'package.json')))
        .map((name) => `${area}/${name}`),
    );
    expect(packages.filter((path) => !readme.includes(`](${path})`))).toEqual([]);
  });

  it('every command the CLI help lists has its section in the CLI README and its name in the package row', () => {
    const section = MAIN_HELP.slice(MAIN_HELP.indexOf('Commands:'), MAIN_HELP.indexOf('\n\n', MAIN_HELP.indexOf('Commands:')));
    const listed = [...section.matchAll(/^ {2}([a-z][\w-]*) {2,}/gm)].map((match) => match[1] ?? '');
    const also = [...section.matchAll(/also: ([^;)]*)/g)].flatMap((match) => (match[1] ?? '').split(/,\s*/));
    const commands = [...new Set([...listed, ...also, ...Object.keys(OVERLAY_HELP)])];
    // A sanity floor, so a change to the help's layout cannot make the check vacuous.
    expect(commands).toEqual(expect.arrayContaining(['mcp', 'serve', 'review', 'changes', 'apply', 'discard', 'export']));
    const cliReadme = readFileSync(join(root, 'apps/cli/README.md'), 'utf8');
    expect(commands.filter((name) => !new RegExp(`^#{3,4} \`libos ${name}(?![\\w-])`, 'm').test(cliReadme))).toEqual([]);
    const row = readFileSync(join(root, 'README.md'), 'utf8').match(/^\| \[`@libos\/cli`\].*$/m)?.[0] ?? '';
    expect(commands.filter((name) => !row.includes(`\`${name}\``))).toEqual([]);
  });

  it('the README dependency line is each package’s run-time dependencies on the others, exactly', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('Dependencies point one way');
    const paragraph = readme.slice(start, readme.indexOf('\n\n', start));
    const names = (side: string) =>
      side
        .replace(/[{}]/g, '')
        .split(/,\s*/)
        .map((name) => name.trim());
    const stated = new Map<string, Set<string>>();
    for (const match of paragraph.matchAll(/`([^`→]+) → ([^`]+)`/g)) {
      for (const from of names(match[1] ?? '')) stated.set(from, new Set([...(stated.get(from) ?? []), ...names(match[2] ?? '')]));
    }
    const actual = workspaceDependencies(root);
    const wrong = [...actual].filter(([name, deps]) => JSON.stringify([...(stated.get(name) ?? [])].sort()) !== JSON.stringify(deps));
    expect(wrong.map(([name, deps]) => `${name} → {${deps.join(', ')}}`)).toEqual([]);
    // Whatever imports nothing is still named (`core` and `http-guard` import nothing), so the line covers every package.
    expect([...actual.keys()].filter((name) => !stated.has(name) && !paragraph.includes(`\`${name}\``))).toEqual([]);
    expect([...stated.keys()].filter((name) => !actual.has(name))).toEqual([]);
  });

  it('every count of the tools is the number of built-in tools', () => {
    const words = ['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
    const wrong: string[] = [];
    for (const [file, text] of texts) {
      for (const match of text.matchAll(
        /\b(\d+|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty) (?:built-in |workspace )?tools\b/gi,
      )) {
        const said = match[1] ?? '';
        const count = /^\d+$/.test(said) ? Number(said) : words.indexOf(said.toLowerCase()) + 10;
        if (count !== BUILTIN_TOOLS.length) wrong.push(`${file}: "${match[0]}" (there are ${BUILTIN_TOOLS.length})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
