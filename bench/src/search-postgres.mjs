// search_files on PostgreSQL, pushed into the database (`searchTree`) against the walk of the same
// provider without it, alternating rounds, medians, in one run; with the round trips each makes.
// Run: bash tooling/postgres/throwaway-postgres.sh run node bench/src/search-postgres.mjs
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createPostgresProvider } from '@libos/provider-postgres';
import { createRuntime } from '@libos/tools';
import pg from 'pg';
import { median } from './median.mjs';

const url = process.env.LIBOS_TEST_DATABASE_URL;
if (url === undefined) {
  console.error('Set LIBOS_TEST_DATABASE_URL, or run: bash tooling/postgres/throwaway-postgres.sh run node bench/src/search-postgres.mjs');
  process.exit(2);
}
const DIRECTORIES = 50;
const FILES = 20;
const ROUNDS = 5;

const pool = new pg.Pool({ connectionString: url, max: 4 });
let queries = 0;
const query = pool.query.bind(pool);
pool.query = (...args) => {
  queries++;
  return query(...args);
};
const provider = createPostgresProvider({ pool, schema: 'libos_bench_search', workspace: `bench-${process.pid}` });
const { searchTree: _unused, ...walkOnly } = provider;
const pushed = (await createRuntime({ provider })).spawn();
const walked = (await createRuntime({ provider: walkOnly })).spawn();

const line = (d, f) => `export const value${d}_${f} = compute(${d}, ${f}); // some ordinary line of code\n`;
for (let d = 0; d < DIRECTORIES; d++) {
  for (let f = 0; f < FILES; f++) {
    const content = line(d, f).repeat(40) + (d === 37 && f === 11 ? 'const needle = findTheNeedle();\n' : '');
    const written = await pushed.call('write_text_file', { path: `src/d${d}/f${f}.ts`, content });
    if (!written.ok) throw new Error(JSON.stringify(written.error));
  }
}

const searches = [
  ['literal', { path: 'src', query: 'findTheNeedle', max_files: 10_000, deadline_ms: 60_000 }],
  ['regex', { path: 'src', query: 'find\\w+Needle\\(', regex: true, max_files: 10_000, deadline_ms: 60_000 }],
  ['case-insensitive', { path: 'src', query: 'findtheneedle', case_sensitive: false, max_files: 10_000, deadline_ms: 60_000 }],
];
console.log(
  `search_files on PostgreSQL, ${DIRECTORIES * FILES} files in ${DIRECTORIES} directories; load ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}`,
);
console.log('| search | pushed ms | walked ms | ratio | pushed round trips | walked round trips |');
console.log('|---|---|---|---|---|---|');
for (const [name, args] of searches) {
  const times = { pushed: [], walked: [] };
  const trips = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [side, agent] of round % 2 === 0
      ? [
          ['pushed', pushed],
          ['walked', walked],
        ]
      : [
          ['walked', walked],
          ['pushed', pushed],
        ]) {
      queries = 0;
      const start = performance.now();
      const outcome = await agent.call('search_files', args);
      times[side].push(performance.now() - start);
      trips[side] = queries;
      if (!outcome.ok || outcome.result.count !== 1) throw new Error(`${name} ${side}: ${JSON.stringify(outcome)}`);
    }
  }
  const [p, w] = [median(times.pushed), median(times.walked)];
  console.log(`| ${name} | ${p.toFixed(1)} | ${w.toFixed(1)} | ${(p / w).toFixed(2)}x | ${trips.pushed} | ${trips.walked} |`);
}
await provider.close();
await pool.end();
