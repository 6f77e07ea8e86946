// The PostgreSQL provider against provider-local (same calls on a temp directory) and against bare
// SQL doing only what the data needs (one statement each): read 100 B, write 100 B, list a
// directory of 10,000 entries, read 64 KiB of a 100 MiB file from its start and from its end,
// append 100 B and copy 100 B. Counts the round trips each provider call makes (every query on
// the provider's pool is one) against the bare one; target: at most 2 round trips beyond it. Runs on the built packages against
// LIBOS_TEST_DATABASE_URL, or a throwaway cluster of its own. Prints medians and ratios; asserts nothing.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createLocalProvider } from '@libos/provider-local';
import { createPostgresProvider } from '@libos/provider-postgres';
import pg from 'pg';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../../tooling/postgres/throwaway-postgres.sh', import.meta.url));
const SCALE = Number(process.env.LIBOS_BENCH_SCALE ?? 1);
const ENTRIES = 10_000;
const BIG = 100 * 1024 * 1024;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median microseconds of `rounds` runs of `body` after a warm-up. */
async function measure(rounds, body) {
  for (let index = 0; index < Math.min(20, rounds); index++) await body(index);
  const times = [];
  for (let index = 0; index < rounds; index++) {
    const start = performance.now();
    await body(index);
    times.push((performance.now() - start) * 1000);
  }
  return median(times);
}

/** A pool that counts the statements sent on it (each is one round trip with node-postgres). */
function countingPool(url) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => undefined);
  const counter = { queries: 0 };
  // Every statement, pool.query's included, goes through some client's query.
  pool.on('connect', (client) => {
    const query = client.query.bind(client);
    client.query = (...args) => {
      counter.queries++;
      return query(...args);
    };
  });
  return { pool, counter };
}

let cluster;
let url = process.env.LIBOS_TEST_DATABASE_URL;
if (url === undefined || url === '') {
  const { stdout } = await run('bash', [script, 'start']);
  const value = (key) =>
    stdout
      .split('\n')
      .find((line) => line.startsWith(`${key}=`))
      .slice(key.length + 1);
  url = value('LIBOS_TEST_DATABASE_URL');
  cluster = value('LIBOS_TEST_POSTGRES_DIR');
}
const schema = `libos_fs_bench_${randomBytes(4).toString('hex')}`;
const hostRoot = mkdtempSync(join(tmpdir(), 'libos-pg-bench-'));
const { pool, counter } = countingPool(url);
const bare = new pg.Pool({ connectionString: url, max: 10 });
const postgres = createPostgresProvider({ pool, schema, workspace: 'bench' });
const local = createLocalProvider({ root: hostRoot });

try {
  const small = new Uint8Array(100).fill(0x61);
  const big = new Uint8Array(BIG);
  for (let index = 0; index < BIG; index += 4096) big[index] = index & 0xff;

  // Set-up (not measured): the same tree on both providers, and the bare tables.
  await postgres.open();
  await postgres.writeFile('small.txt', small, { overwrite: false });
  await local.writeFile('small.txt', small, { overwrite: false });
  let started = performance.now();
  await postgres.writeFile('big.bin', big, { overwrite: false });
  const bigWriteMs = performance.now() - started;
  writeFileSync(join(hostRoot, 'big.bin'), big);
  mkdirSync(join(hostRoot, 'many'));
  for (let index = 0; index < ENTRIES; index++) writeFileSync(join(hostRoot, 'many', `f${index}`), 'x');
  started = performance.now();
  const names = Array.from({ length: ENTRIES }, (_, index) => `many/f${index}`);
  for (let next = 0; next < names.length; next += 16) {
    await Promise.all(names.slice(next, next + 16).map((name) => postgres.writeFile(name, new Uint8Array([0x78]), { overwrite: false })));
  }
  const manyWriteMs = performance.now() - started;

  const s = `"${schema}"`;
  await bare.query(`CREATE TABLE ${s}.bare_files (parent bytea, name bytea, data bytea, size bigint, PRIMARY KEY (parent, name))`);
  await bare.query(`CREATE TABLE ${s}.bare_chunks (id bigint, seq integer, data bytea, PRIMARY KEY (id, seq))`);
  await bare.query(`ALTER TABLE ${s}.bare_chunks ALTER COLUMN data SET STORAGE EXTERNAL`);
  await bare.query(`INSERT INTO ${s}.bare_files VALUES ('', 'small.txt', $1, 100)`, [Buffer.from(small)]);
  await bare.query(`INSERT INTO ${s}.bare_files SELECT 'many', convert_to('f' || g, 'UTF8'), 'x', 1 FROM generate_series(0, ${ENTRIES - 1}) g`);
  for (let seq = 0; seq < BIG / (1024 * 1024); seq++) {
    await bare.query(`INSERT INTO ${s}.bare_chunks VALUES (1, $1, $2)`, [seq, Buffer.from(big.buffer, seq * 1024 * 1024, 1024 * 1024)]);
  }
  await bare.query(`ANALYZE ${s}.bare_files`);
  await pool.query(`ANALYZE ${s}.entries`);

  const cases = [
    {
      name: 'read 100 B',
      rounds: 400 * SCALE,
      postgres: () => postgres.readFile('small.txt', { maxBytes: 65536 }),
      local: () => local.readFile('small.txt', { maxBytes: 65536 }),
      bare: () => bare.query({ name: 'read', text: `SELECT data FROM ${s}.bare_files WHERE parent = '' AND name = 'small.txt'` }),
    },
    {
      name: 'write 100 B',
      rounds: 300 * SCALE,
      postgres: () => postgres.writeFile('small.txt', small, { overwrite: true }),
      local: () => local.writeFile('small.txt', small, { overwrite: true }),
      bare: () =>
        bare.query({
          name: 'write',
          text: `INSERT INTO ${s}.bare_files VALUES ('', 'small.txt', $1, 100) ON CONFLICT (parent, name) DO UPDATE SET data = EXCLUDED.data`,
          values: [Buffer.from(small)],
        }),
    },
    {
      name: `list ${ENTRIES} entries`,
      rounds: 30 * SCALE,
      postgres: () => postgres.listDirectory('many', { limit: ENTRIES }),
      local: () => local.listDirectory('many', { limit: ENTRIES }),
      bare: () =>
        bare.query({ name: 'list', text: `SELECT name, size FROM ${s}.bare_files WHERE parent = 'many' ORDER BY name LIMIT ${ENTRIES + 1}` }),
    },
    {
      name: 'read 64 KiB of 100 MiB',
      rounds: 200 * SCALE,
      postgres: () => postgres.readFile('big.bin', { maxBytes: 65536 }),
      local: () => local.readFile('big.bin', { maxBytes: 65536 }),
      bare: () => bare.query({ name: 'big', text: `SELECT substring(data FROM 1 FOR 65536) AS data FROM ${s}.bare_chunks WHERE id = 1 AND seq = 0` }),
    },
    {
      name: 'read the last 64 KiB of 100 MiB',
      rounds: 200 * SCALE,
      postgres: () => postgres.readFileRange('big.bin', { offset: 0, fromEnd: true, maxBytes: 65536 }),
      local: () => local.readFileRange('big.bin', { offset: 0, fromEnd: true, maxBytes: 65536 }),
      bare: () =>
        bare.query({
          name: 'tail',
          text: `SELECT substring(data FROM octet_length(data) - 65535) AS data FROM ${s}.bare_chunks WHERE id = 1 AND seq = ${BIG / (1024 * 1024) - 1}`,
        }),
    },
    {
      name: 'append 100 B',
      rounds: 300 * SCALE,
      postgres: () => postgres.appendFile('log.txt', small, { create: true }),
      local: () => local.appendFile('log.txt', small, { create: true }),
      bare: () =>
        bare.query({
          name: 'append',
          text: `INSERT INTO ${s}.bare_files VALUES ('', 'log.txt', $1, 100) ON CONFLICT (parent, name) DO UPDATE SET data = ${s}.bare_files.data || EXCLUDED.data`,
          values: [Buffer.from(small)],
        }),
    },
    {
      name: 'copy 100 B',
      rounds: 300 * SCALE,
      postgres: () => postgres.copyFile('small.txt', 'copy.txt', { overwrite: true }),
      local: () => local.copyFile('small.txt', 'copy.txt', { overwrite: true }),
      bare: () =>
        bare.query({
          name: 'copy',
          text: `INSERT INTO ${s}.bare_files SELECT parent, 'copy.txt', data, size FROM ${s}.bare_files WHERE parent = '' AND name = 'small.txt'
                 ON CONFLICT (parent, name) DO UPDATE SET data = EXCLUDED.data`,
        }),
    },
  ];

  console.log(`set-up: a 100 MiB write took ${bigWriteMs.toFixed(0)} ms; ${ENTRIES} one-byte writes (16 at a time) ${manyWriteMs.toFixed(0)} ms`);
  console.log('operation                          postgres µs   local µs   bare SQL µs   pg/local   pg/bare   round trips (pg / bare)');
  for (const entry of cases) {
    const before = counter.queries;
    await entry.postgres();
    const trips = counter.queries - before;
    const pgTime = await measure(entry.rounds, entry.postgres);
    const localTime = await measure(entry.rounds, entry.local);
    const bareTime = await measure(entry.rounds, entry.bare);
    console.log(
      `${entry.name.padEnd(34)} ${pgTime.toFixed(0).padStart(11)} ${localTime.toFixed(0).padStart(10)} ${bareTime.toFixed(0).padStart(13)}` +
        `   ${(pgTime / localTime).toFixed(2).padStart(8)} ${(pgTime / bareTime).toFixed(2).padStart(9)}   ${trips} / 1 (target: at most 3)`,
    );
  }
} finally {
  await postgres.close();
  await local.close();
  await bare.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
  await bare.end();
  await pool.end();
  rmSync(hostRoot, { recursive: true, force: true });
  if (cluster !== undefined) await run('bash', [script, 'stop', cluster]);
}
