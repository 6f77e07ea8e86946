// search_files on PostgreSQL, pushed into the database (`searchTree`) with the trigram index, pushed
// without it, and the walk of the same provider without `searchTree`, alternating rounds, medians,
// in one run; with the round trips each makes. Trees of 1,000 and 10,000 files (50,000 with --large).
// Run: bash tooling/postgres/throwaway-postgres.sh run node bench/src/search-postgres.mjs [--large]
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
const SCHEMA = `libos_bench_search_${process.pid}`;
const TREES = [[50, 20], [100, 100], ...(process.argv.includes('--large') ? [[250, 200]] : [])];
const ROUNDS = 5;

const pool = new pg.Pool({ connectionString: url, max: 4 });
let queries = 0;
const query = pool.query.bind(pool);
pool.query = (...args) => {
  queries++;
  return query(...args);
};

const line = (d, f) => `export const value${d}_${f} = compute(${d}, ${f}); // some ordinary line of code\n`;
const workspaceOf = (directories, files) => `bench-${directories * files}`;
const sides = (workspace) => {
  const provider = createPostgresProvider({ pool, schema: SCHEMA, workspace });
  const { searchTree: _unused, ...walkOnly } = provider;
  return { provider, walkOnly };
};

for (const [directories, files] of TREES) {
  const { provider } = sides(workspaceOf(directories, files));
  const agent = (await createRuntime({ provider })).spawn();
  for (let d = 0; d < directories; d++) {
    for (let f = 0; f < files; f++) {
      const content = line(d, f).repeat(40) + (d === 37 && f === 11 ? 'const needle = findTheNeedle();\n' : '');
      const written = await agent.call('write_text_file', { path: `src/d${d}/f${f}.ts`, content });
      if (!written.ok) throw new Error(JSON.stringify(written.error));
    }
  }
  await provider.close();
}
await query(`ANALYZE ${SCHEMA}.chunks`);

const searches = [
  ['literal', { path: 'src', query: 'findTheNeedle', max_files: 100_000, deadline_ms: 60_000 }],
  ['regex', { path: 'src', query: 'find\\w+Needle\\(', regex: true, max_files: 100_000, deadline_ms: 60_000 }],
  ['case-insensitive', { path: 'src', query: 'findtheneedle', case_sensitive: false, max_files: 100_000, deadline_ms: 60_000 }],
];

// One side's median time and round trips, the sides alternating round by round.
async function measure(agents, args, rounds) {
  const times = new Map(agents.map(([side]) => [side, []]));
  const trips = new Map();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? agents : [...agents].reverse();
    for (const [side, agent] of order) {
      queries = 0;
      const start = performance.now();
      const outcome = await agent.call('search_files', args);
      times.get(side).push(performance.now() - start);
      trips.set(side, queries);
      if (!outcome.ok || outcome.result.count !== 1) throw new Error(`${side}: ${JSON.stringify(outcome)}`);
    }
  }
  return new Map([...times].map(([side, list]) => [side, { ms: median(list), trips: trips.get(side) }]));
}

const results = [];
for (const indexed of [true, false]) {
  if (!indexed) await query(`DROP INDEX ${SCHEMA}.chunks_first_trgm`);
  for (const [directories, files] of TREES) {
    const { provider, walkOnly } = sides(workspaceOf(directories, files));
    const pushed = (await createRuntime({ provider })).spawn();
    const walked = (await createRuntime({ provider: walkOnly })).spawn();
    for (const [name, args] of searches) {
      // The walk does not use the index: it is measured once, beside the indexed search.
      const agents = indexed
        ? [
            ['pushed', pushed],
            ['walked', walked],
          ]
        : [['pushed', pushed]];
      const measured = await measure(agents, args, directories * files > 10_000 ? 3 : ROUNDS);
      results.push({ files: directories * files, name, indexed, ...Object.fromEntries(measured) });
    }
    await provider.close();
  }
}

console.log(
  `search_files on PostgreSQL; load ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}`,
);
console.log(
  '| files | search | pushed, index ms | pushed, no index ms | walked ms | index / no index | index / walk | round trips (pushed / walked) |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of results.filter((one) => one.indexed)) {
  const plain = results.find((one) => !one.indexed && one.files === row.files && one.name === row.name);
  console.log(
    `| ${row.files} | ${row.name} | ${row.pushed.ms.toFixed(1)} | ${plain.pushed.ms.toFixed(1)} | ${row.walked.ms.toFixed(1)} | ${(row.pushed.ms / plain.pushed.ms).toFixed(2)}x | ${(row.pushed.ms / row.walked.ms).toFixed(3)}x | ${row.pushed.trips} / ${row.walked.trips} |`,
  );
}
await query(`DROP SCHEMA ${SCHEMA} CASCADE`);
await pool.end();
