// The dependency rule of CONTRIBUTING.md, checked against every package.json: a package imports at
// run time only what its line allows, so core stays the contract and helpers stay out of it. Also
// the size of that contract: core's exported names, counted from its index.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { workspaceDependencies } from './workspace-dependencies.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Rule {
  readonly packages: readonly string[];
  readonly allowed: readonly string[];
}

const names = (side: string): string[] =>
  side
    .replace(/[{}]/g, '')
    .split(/,\s*/)
    .map((name) => name.trim())
    .filter((name) => name !== '');

/** The rule lines between the markers of CONTRIBUTING.md: `` - `left → {right}` ``. */
function readRule(text: string): Rule[] {
  const block = text.slice(text.indexOf('<!-- dependency-rule -->'), text.indexOf('<!-- /dependency-rule -->'));
  return [...block.matchAll(/^- `([^`→]+) → ([^`]+)`$/gm)].map((match) => ({ packages: names(match[1] ?? ''), allowed: names(match[2] ?? '') }));
}

const matches = (pattern: string, name: string): boolean =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(name);

/** Each package's breaches of the rule: a dependency its line does not allow, or no line at all. */
function breaches(rule: readonly Rule[], packages: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [name, dependencies] of packages) {
    const line = rule.find((candidate) => candidate.packages.some((pattern) => matches(pattern, name)));
    if (line === undefined) {
      found.push(`${name}: no line of the rule names it`);
      continue;
    }
    for (const dependency of dependencies) {
      if (!line.allowed.some((pattern) => matches(pattern, dependency))) found.push(`${name} → ${dependency}`);
    }
  }
  return found;
}

const rule = readRule(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8'));

describe('the dependency rule', () => {
  it('is stated in CONTRIBUTING.md, and every package.json keeps it', () => {
    expect(rule.length).toBeGreaterThan(5);
    expect(breaches(rule, workspaceDependencies(root))).toEqual([]);
  });

  it('refuses a provider importing the tools, core importing anything, and a package it does not name', () => {
    const wrong = new Map([
      ['provider-disk', ['core', 'tools']],
      ['core', ['provider-kit']],
      ['provider-kit', ['core', 'provider-memfs']],
      ['object-memory', ['tools']],
      ['stranger', []],
    ]);
    expect(breaches(rule, wrong)).toEqual([
      'provider-disk → tools',
      'core → provider-kit',
      'provider-kit → provider-memfs',
      'object-memory → tools',
      'stranger: no line of the rule names it',
    ]);
  });
});

// Core is the contract (paths, errors and their factories, the interfaces, config); a helper that
// creeps back in raises this count. Lower the bound when names leave; never raise it for a helper.
// 113 after the provider kit took the helpers; 121 with three new parts of the contract: the rule
// of names equal up to Unicode form (nameKey, pathKey, mayHaveLookAlikes), the optional
// `searchTree` (its three types) and the process store of a stateless fleet (its two types); 116
// once the call gate (and its type), the signal check, the host error code and the bounded listing
// went to the kit. Their deprecated copies (core's deprecated.ts, one release) are not counted.
// 117 with `TreeSearchListing`, the contract's shape of an index's answer by directory.
const CORE_EXPORTS_MAX = 117;

/** The names of each `export { ... } from '<source>'` of an index. */
function exportsBySource(index: string): { name: string; source: string }[] {
  return [...index.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g)].flatMap((match) =>
    (match[1] ?? '')
      .split(',')
      .map((name) => name.trim().replace(/^type\s+/, ''))
      .filter((name) => name !== '')
      .map((name) => ({ name, source: match[2] ?? '' })),
  );
}

describe('the contract package', () => {
  const index = readFileSync(join(root, 'packages/core/src/index.ts'), 'utf8');
  const exported = exportsBySource(index);

  it(`exports at most ${CORE_EXPORTS_MAX} names, not counting the deprecated ones`, () => {
    expect(index).not.toMatch(/export \*/);
    expect(new Set(exported.map(({ name }) => name)).size).toBe(exported.length);
    expect(exported.filter(({ source }) => source !== './deprecated.js').length).toBeLessThanOrEqual(CORE_EXPORTS_MAX);
  });

  it('marks every name of deprecated.ts @deprecated, so a name parked there is on its way out', () => {
    const deprecated = readFileSync(join(root, 'packages/core/src/deprecated.ts'), 'utf8');
    const declared = [...deprecated.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\nexport (?:interface|function|class|const|type) (\w+)/g)];
    const tagged = declared.filter((match) => (match[1] ?? '').includes('@deprecated')).map((match) => match[2]);
    const names = [...deprecated.matchAll(/^export (?:interface|function|class|const|type) (\w+)/gm)].map((match) => match[1]);
    expect(tagged).toEqual(names);
    expect(
      exported
        .filter(({ source }) => source === './deprecated.js')
        .map(({ name }) => name)
        .sort(),
    ).toEqual([...names].sort());
  });
});
