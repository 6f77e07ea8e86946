import { LibosError } from '@libos/core';
import { expect, it } from 'vitest';
import { MIGRATIONS, createPostgresObjectStore, migrate, quoteSchema } from '../src/index.js';
import { objectFor } from './objects.js';
import { describePostgres, freshSchema, testPool } from './postgres.js';

describePostgres('migrations', () => {
  it('create the schema on first use, once, when eight hosts start at the same moment', async () => {
    const schema = freshSchema();
    const hosts = Array.from({ length: 8 }, () => testPool(1));
    const reports = await Promise.all(hosts.map((pool) => migrate(pool, schema, quoteSchema(schema))));
    const newest = MIGRATIONS.at(-1)!.version;
    expect(reports.filter((report) => report.from === 0)).toHaveLength(1);
    expect(reports.every((report) => report.to === newest)).toBe(true);
    const { rows } = await hosts[0]!.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
    const tables = await hosts[0]!.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [schema]);
    expect(tables.rows.map((row) => row.table_name)).toEqual(['namespaces', 'objects', 'schema_migrations', 'usage', 'uses']);
  });

  it('apply only the steps a schema lacks, and roll back a failing step whole', async () => {
    const schema = freshSchema();
    const pool = testPool();
    await migrate(pool, schema, quoteSchema(schema));
    const broken = [...MIGRATIONS, { version: 99, description: 'broken', sql: (s: string) => `CREATE TABLE ${s}.half (x int); SELECT 1/0;` }];
    await expect(migrate(pool, schema, quoteSchema(schema), broken)).rejects.toThrow(/division by zero/);
    const half = await pool.query(`SELECT to_regclass($1) AS half`, [`"${schema}".half`]);
    expect(half.rows[0].half).toBeNull();
    const again = await migrate(pool, schema, quoteSchema(schema));
    expect(again.from).toBe(again.to);
  });

  it('refuse a schema newer than this package knows, touching nothing', async () => {
    const schema = freshSchema();
    const pool = testPool();
    await migrate(pool, schema, quoteSchema(schema));
    await pool.query(`INSERT INTO "${schema}".schema_migrations (version, description) VALUES (1000, 'from the future')`);
    await expect(migrate(pool, schema, quoteSchema(schema))).rejects.toMatchObject({
      code: 'provider_failure',
      details: { reason: 'schema_too_new', schema_version: 1000 },
    });
  });
});

it.each(['', 'Libos', 'a-b', 'x;drop', 'pg_catalog', '"q"', 'a'.repeat(64)])('the schema name %j is refused with invalid_arguments', (schema) => {
  expect(() => quoteSchema(schema)).toThrow(LibosError);
  try {
    quoteSchema(schema);
  } catch (error) {
    expect(LibosError.is(error, 'invalid_arguments')).toBe(true);
  }
});

describePostgres('the schema itself', () => {
  it('refuses to change a stored Object, even by hand, and keeps usage right through a hand-made delete', async () => {
    const schema = freshSchema();
    const pool = testPool();
    const store = await createPostgresObjectStore({ pool, schema });
    await store.declareNamespace('shared');
    await store.create(...objectFor('shared', 'fixed', 'abc'));
    await store.create(...objectFor('shared', 'other', 'de'));
    await expect(pool.query(`UPDATE "${schema}".objects SET label = 'public'`)).rejects.toThrow(/immutable/);
    expect((await store.get('shared', 'fixed'))?.label).toBe('normal');
    await pool.query(`DELETE FROM "${schema}".namespaces`);
    expect(await store.usage()).toEqual({ objects: 0, bytes: 0 });
    expect(await store.listNamespaces()).toEqual([]);
  });
});
