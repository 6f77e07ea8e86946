import { createRuntime } from '@libos/tools';
import fc from 'fast-check';
import { expect, it, onTestFinished } from 'vitest';
import { searchScenario } from '../../tools/test/support/search-scenarios.js';
import { describePostgres, pushedAndWalked, testPool, testProvider } from './postgres.js';

describePostgres('search_files on PostgreSQL, pushed into the database', () => {
  it('answers exactly what the walk answers, on generated trees, ignore files and patterns', async () => {
    const [agent, walker] = await pushedAndWalked(testProvider());
    let round = 0;
    await fc.assert(
      fc.asyncProperty(searchScenario, async ({ files, args }) => {
        const root = `r${round++}`;
        for (const { path, bytes } of files) {
          const written = await agent.call('write_text_file', { path: `${root}/${path}`, content: new TextDecoder().decode(bytes) });
          expect(written.ok).toBe(true);
        }
        const call = { path: root, ...args };
        const search: string = 'search_files';
        expect(await agent.call(search, call)).toEqual(await walker.call(search, call));
      }),
      { numRuns: 60 },
    );
  });

  it('searches 300 files in 30 directories in one round trip plus nothing for files that cannot match', async () => {
    const pool = testPool(2);
    let queries = 0;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      queries++;
      return query(...args);
    };
    const provider = testProvider({ pool });
    const runtime = await createRuntime({ provider });
    onTestFinished(() => runtime.close());
    const agent = runtime.spawn();
    for (let directory = 0; directory < 30; directory++) {
      for (let file = 0; file < 10; file++) {
        const content = directory === 17 && file === 3 ? 'where is the needle\n' : `hay ${directory} ${file}\n`;
        expect((await agent.call('write_text_file', { path: `src/d${directory}/f${file}.txt`, content })).ok).toBe(true);
      }
    }
    queries = 0;
    const outcome = await agent.call('search_files', { path: 'src', query: 'needle' });
    expect(outcome).toMatchObject({ ok: true, result: { count: 1, files_searched: 300, matches: [{ path: 'src/d17/f3.txt', line: 1 }] } });
    // One for the tree; the `.gitignore` of the root is looked for outside the search's directory.
    expect(queries).toBeLessThanOrEqual(2);
    queries = 0;
    const regex = await agent.call('search_files', { path: 'src', query: 'need.e', regex: true });
    expect(regex).toMatchObject({ ok: true, result: { count: 1 } });
    expect(queries).toBeLessThanOrEqual(2);
  });
});
