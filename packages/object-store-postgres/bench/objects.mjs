// Objects through the tools on PostgreSQL: create_object_from_file and write_object_to_file of a
// 1 KiB file, on the PostgreSQL store against the in-memory store, and against a bare pg INSERT /
// SELECT of the same row (target: at most 1.5x the bare queries); and the store's own create / get
// against the same bare queries. Runs on the built packages against LIBOS_TEST_DATABASE_URL, or a
// throwaway cluster of its own. Prints ratios; asserts nothing.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createPostgresObjectStore } from '@libos/object-store-postgres';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import pg from 'pg';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../../tooling/postgres/throwaway-postgres.sh', import.meta.url));
const ROUNDS = 300 * Number(process.env.LIBOS_BENCH_SCALE ?? 1);
const WARMUP = 50;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function expectOk(outcome) {
  const result = await outcome;
  if (!result.ok) throw new Error(`call failed: ${JSON.stringify(result.error)}`);
  return result.result;
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
const schema = `libos_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Pool({ connectionString: url, max: 1 });

try {
  const content = 'x'.repeat(1000) + 'Grüße ✓\n'.repeat(2);
  const config = { namespaces: [{ name: 'bench', rights: ['read', 'write'] }] };
  async function runtimeOn(objectStore) {
    const runtime = await createRuntime({ provider: createMemfsProvider(), config, ...(objectStore === undefined ? {} : { objectStore }) });
    const process = runtime.spawn();
    await expectOk(process.call('write_text_file', { path: 'in.txt', content }));
    return { runtime, process };
  }
  const memory = await runtimeOn(undefined);
  const postgres = await runtimeOn(await createPostgresObjectStore({ connectionString: url, schema }));
  const store = await createPostgresObjectStore({ connectionString: url, schema });
  await store.declareNamespace('direct');

  // The bare baseline: the same row, as the store writes it, with one prepared INSERT and SELECT.
  const bare = new pg.Pool({ connectionString: url, max: 10 });
  await bare.query(`CREATE TABLE ${schema}.bare (oid text PRIMARY KEY, namespace bytea, name bytea, type text, label text,
    payload bytea, payload_bytes bigint, created_at bytea, created_by bytea)`);
  await bare.query(`CREATE UNIQUE INDEX ON ${schema}.bare (namespace, name)`);
  const payload = Buffer.from(
    JSON.stringify({
      kind: 'workspace_text_file',
      source_path: 'in.txt',
      encoding: 'utf-8',
      content,
      bytes_read: Buffer.byteLength(content),
      truncated: false,
    }),
  );
  const bareInsert = (index) =>
    bare.query({
      name: 'bare_insert',
      text: `INSERT INTO ${schema}.bare VALUES ($1, $2, $3, 'artifact', 'normal', $4, $5, $6, $7)`,
      values: [
        `obj_${index}`,
        Buffer.from('bench'),
        Buffer.from(`o${index}`),
        payload,
        payload.length,
        Buffer.from(new Date().toISOString()),
        Buffer.from('pid_0123456789abcdef'),
      ],
    });
  const bareSelect = (index) =>
    bare.query({
      name: 'bare_select',
      text: `SELECT * FROM ${schema}.bare WHERE namespace = $1 AND name = $2`,
      values: [Buffer.from('bench'), Buffer.from(`o${index}`)],
    });

  const variants = {
    memory: {
      create: (index) => expectOk(memory.process.call('create_object_from_file', { name: `o${index}`, path: 'in.txt', namespace: 'bench' })),
      read: (index) => expectOk(memory.process.call('write_object_to_file', { name: `o${index}`, path: 'out.txt', namespace: 'bench' })),
    },
    postgres: {
      create: (index) => expectOk(postgres.process.call('create_object_from_file', { name: `o${index}`, path: 'in.txt', namespace: 'bench' })),
      read: (index) => expectOk(postgres.process.call('write_object_to_file', { name: `o${index}`, path: 'out.txt', namespace: 'bench' })),
    },
    store: {
      create: (index) => {
        const object = Object.freeze({
          oid: `obj_${index.toString(16).padStart(16, '0')}`,
          namespace: 'direct',
          name: `o${index}`,
          type: 'artifact',
          payload: JSON.parse(payload.toString()),
          label: 'normal',
          created_at: new Date().toISOString(),
          created_by: 'pid_0123456789abcdef',
        });
        return store.create(object, { payloadBytes: payload.length, quota: { maxObjectsCount: 100_000, maxObjectsBytes: 268_435_456 } });
      },
      read: (index) => store.get('direct', `o${index}`),
    },
    bare: { create: bareInsert, read: bareSelect },
  };
  const times = Object.fromEntries(Object.keys(variants).map((name) => [name, { create: [], read: [] }]));
  // Rounds alternate between the variants, so a busy moment of the machine falls on all of them.
  for (let index = 0; index < WARMUP + ROUNDS; index++) {
    for (const [name, variant] of Object.entries(variants)) {
      for (const operation of ['create', 'read']) {
        const start = performance.now();
        await variant[operation](index);
        if (index >= WARMUP) times[name][operation].push(performance.now() - start);
      }
    }
  }
  const ms = (name, operation) => median(times[name][operation]);
  for (const [operation, tool, query] of [
    ['create', 'create_object_from_file', 'INSERT'],
    ['read', 'write_object_to_file', 'SELECT'],
  ]) {
    const onPostgres = ms('postgres', operation);
    console.log(
      `object-store-postgres: ${tool} 1 KiB: postgres ${onPostgres.toFixed(3)} ms, memory ${ms('memory', operation).toFixed(3)} ms ` +
        `(${(onPostgres / ms('memory', operation)).toFixed(2)}x), bare ${query} ${ms('bare', operation).toFixed(3)} ms: ` +
        `ratio ${(onPostgres / ms('bare', operation)).toFixed(2)}x (target <= 1.5x)`,
    );
  }
  for (const [operation, method, query] of [
    ['create', 'create', 'INSERT'],
    ['read', 'get', 'SELECT'],
  ]) {
    console.log(
      `object-store-postgres: store.${method} 1 KiB: ${ms('store', operation).toFixed(3)} ms, bare ${query} ${ms('bare', operation).toFixed(3)} ms: ` +
        `ratio ${(ms('store', operation) / ms('bare', operation)).toFixed(2)}x`,
    );
  }
  await store.close();
  await memory.runtime.close();
  await postgres.runtime.close();
  await bare.end();
} finally {
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
  await admin.end();
  if (cluster !== undefined) await run('bash', [script, 'stop', cluster]);
}
