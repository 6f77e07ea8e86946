import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkspacePath } from '@libos/core';
import { createRuntime } from '@libos/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OUTSIDE_CONTENT, createLocalTestbed, fingerprintTree, trackTestbeds } from './local-testbed.js';
import { walkOnly, writeScenarioFiles } from './search-support.js';

const track = trackTestbeds();
// The generated scenarios of tools' own differential test (memfs), imported by a path the
// package's typecheck does not follow (it lies outside this package's root).
const scenarios = new URL('../../tools/test/support/search-scenarios.ts', import.meta.url).href;
type Scenario = { files: readonly { path: string; bytes: Uint8Array }[]; args: Record<string, unknown> };
const { searchScenario } = (await import(scenarios)) as { searchScenario: fc.Arbitrary<Scenario> };
// The scenarios' arguments are generated, so the call is typed loosely.
const SEARCH: string = 'search_files';
const churner = fileURLToPath(new URL('./fixtures/churn-tree.mjs', import.meta.url));
// Generated trees per borrowing mode: 150 under `pnpm test:stress` (LIBOS_STRESS=1), 50 in the default
// run (each run draws new ones, so runs add up to the same ground). Searches raced by the churner:
// 60 under stress, 20 by default.
const SCENARIOS = process.env.LIBOS_STRESS === '1' ? 150 : 50;
const RACED_SEARCHES = process.env.LIBOS_STRESS === '1' ? 60 : 20;

describe('search_files on real disk through searchTree', () => {
  for (const borrowWorkingDirectory of [false, true]) {
    it(`answers exactly what the walk answers on generated trees, ignore files and patterns (borrowing: ${borrowWorkingDirectory})`, async () => {
      const { sandbox, provider } = track(createLocalTestbed(undefined, { borrowWorkingDirectory }));
      const pushed = (await createRuntime({ provider })).spawn();
      const walked = (await createRuntime({ provider: walkOnly(provider) })).spawn();
      let round = 0;
      await fc.assert(
        fc.asyncProperty(searchScenario, async ({ files, args }) => {
          const root = `r${round++}`;
          writeScenarioFiles(sandbox.at, root, files);
          const call = { path: root, ...args };
          expect(await pushed.call(SEARCH, call)).toEqual(await walked.call(SEARCH, call));
        }),
        { numRuns: SCENARIOS },
      );
    }, 120_000);
  }

  it('never reads nor shows anything outside the root while a second process renames files and swaps them for links', async () => {
    const { sandbox, provider } = track(createLocalTestbed(undefined, { borrowWorkingDirectory: true }));
    const agent = (await createRuntime({ provider })).spawn();
    const zone = sandbox.at('zone');
    for (let index = 0; index < 20; index++) {
      mkdirSync(join(zone, `d${index}`), { recursive: true });
      writeFileSync(join(zone, `d${index}`, 'f.txt'), 'inside needle\n');
    }
    const before = fingerprintTree(sandbox.outside);
    const child = spawn(process.execPath, [churner, zone, sandbox.outside], { stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    let churned = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (churned += chunk));
    try {
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      for (let round = 0; round < RACED_SEARCHES; round++) {
        const outside = await agent.call('search_files', { path: 'zone', query: OUTSIDE_CONTENT, case_sensitive: false });
        expect(outside).toMatchObject({ ok: true, result: { count: 0 } });
        const answer = await provider.searchTree!('zone' as WorkspacePath, {
          needles: [],
          alwaysNames: [],
          maxBytes: 100,
          maxEntries: 10_000,
          maxCarriedBytes: 1e6,
        });
        for (const entry of answer.entries) {
          expect(entry.path.startsWith('zone/')).toBe(true);
          const text = entry.read === undefined ? '' : new TextDecoder().decode(entry.read.bytes);
          expect(text.toUpperCase()).not.toContain(OUTSIDE_CONTENT);
          if (entry.read !== undefined) expect(entry.kind).toBe('file');
        }
      }
    } finally {
      child.stdin.end();
      await exited;
    }
    // The churner must have raced the searches, or the test proved nothing.
    expect(Number(churned.trim().split('\n').at(-1))).toBeGreaterThan(0);
    expect(fingerprintTree(sandbox.outside)).toBe(before);
  }, 120_000);
});
