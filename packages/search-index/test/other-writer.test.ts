import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLocalProvider } from '@libos/provider-local';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { withSearchIndex } from '../src/index.js';
import { sandbox } from './support/sandbox.js';

interface Change {
  readonly phase: 'intent' | 'done';
  readonly op: number;
  readonly path: string;
  readonly kind: 'write' | 'delete';
  readonly at: number;
}

interface Search {
  readonly op: number;
  readonly path: string;
  readonly endedAt: number;
  readonly found: readonly string[];
}

const OPS = 400;

describe('an index beside a second process that edits the tree', () => {
  it('never answers from before a change that was done when the search began', async () => {
    const { root, index } = sandbox();
    mkdirSync(root, { recursive: true });
    const provider = createLocalProvider({ root });
    const indexed = withSearchIndex(provider, { directory: index });
    const agent = (await createRuntime({ provider: indexed.provider })).spawn();
    await indexed.warm();
    const changes: Change[] = [];
    const searches: Search[] = [];
    let latest: Change | undefined;
    let searching = false;
    const searchLatest = async () => {
      if (searching || latest === undefined) return;
      searching = true;
      const change = latest;
      latest = undefined;
      const token = `tok${String(change.op).padStart(6, '0')}`;
      const outcome = await agent.call('search_files', { path: '.', query: token });
      if (!outcome.ok) throw new Error(JSON.stringify(outcome));
      const result = outcome.result as { matches: { path: string }[] };
      searches.push({ op: change.op, path: change.path, endedAt: Date.now(), found: result.matches.map((match) => match.path) });
      searching = false;
      void searchLatest();
    };
    const writer = fork(fileURLToPath(new URL('./support/edit-behind.mjs', import.meta.url)), [root, String(OPS)]);
    await new Promise<void>((resolve, reject) => {
      writer.on('message', (message: Change) => {
        changes.push(message);
        if (message.phase === 'done' && message.kind === 'write') {
          latest = message;
          void searchLatest().catch(reject);
        }
      });
      writer.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
    });
    while (searching) await new Promise((resolve) => setTimeout(resolve, 10));
    await indexed.provider.close();

    // A search that missed its token is stale unless a later change of that file had begun by its end.
    const stale = searches.filter(
      (search) =>
        !search.found.includes(search.path) &&
        !changes.some((change) => change.phase === 'intent' && change.path === search.path && change.op > search.op && change.at <= search.endedAt),
    );
    expect(stale).toEqual([]);
    expect(searches.filter((search) => search.found.length > 0).length).toBeGreaterThan(20);
    // Nothing shown that the file did not hold: a token lives in the one file written with it.
    expect(searches.every((search) => search.found.every((path) => path === search.path))).toBe(true);
  }, 120_000);
});
