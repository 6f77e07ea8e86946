import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { createSandbox, type Sandbox } from './local-testbed.js';

/** A child-process script bundled from a TypeScript fixture, in a directory every user can reach. */
export interface ChildBundle {
  /** The bundled `.mjs` file, for `node <file> ...`. */
  readonly file: string;
  remove(): void;
}

/**
 * Bundles `test/fixtures/<name>.ts` with the provider's and core's sources (the `@libos/source`
 * condition, as vitest resolves them) into one file under the system temp directory, mode 0755 and
 * 0644. A child then runs the code under test, not a build that may be stale, and runs it from
 * wherever the repository is cloned, even a 0700 home that another user cannot traverse.
 */
export async function bundleChild(name: string): Promise<ChildBundle> {
  const directory = mkdtempSync(join(tmpdir(), 'libos-child-'));
  chmodSync(directory, 0o755);
  const file = join(directory, `${name}.mjs`);
  await build({
    entryPoints: [fileURLToPath(new URL(`./fixtures/${name}.ts`, import.meta.url))],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@libos/source'],
    logLevel: 'silent',
  });
  chmodSync(file, 0o644);
  return { file, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/**
 * The bed of a test file whose children run in other processes: bundles the fixtures `names`
 * before its tests, and removes them and every sandbox it made after. `child(name)` is a bundle's
 * file, `sandbox()` a fresh root removed with the rest.
 */
export function useChildBundles(names: readonly string[]): { child(name: string): string; sandbox(): Sandbox } {
  const children = new Map<string, ChildBundle>();
  const sandboxes: Sandbox[] = [];
  beforeAll(async () => {
    for (const name of names) children.set(name, await bundleChild(name));
  }, 60_000);
  afterAll(() => {
    for (const bundle of children.values()) bundle.remove();
    for (const created of sandboxes) created.remove();
  });
  return {
    child: (name) => children.get(name)?.file ?? '',
    sandbox: () => {
      const created = createSandbox();
      sandboxes.push(created);
      return created;
    },
  };
}
