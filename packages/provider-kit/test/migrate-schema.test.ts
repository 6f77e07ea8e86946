import { describe, expect, it } from 'vitest';
import { migrateSchema, type MigrationConnection, type SchemaMigration } from '../src/index.js';

/** A connection that records every statement and answers `max(version)` with `version`. */
function fakePool(version: number | null, failOn?: string) {
  const statements: string[] = [];
  const released: Array<boolean | undefined> = [];
  const listeners = new Set<unknown>();
  const connection: MigrationConnection = {
    async query(sql) {
      statements.push(sql.replace(/\s+/g, ' ').trim());
      if (failOn !== undefined && sql.includes(failOn)) throw new Error(`failed: ${failOn}`);
      return { rows: sql.includes('max(version)') ? [{ version }] : [] };
    },
    release: (destroy) => void released.push(destroy),
    on: (_event, listener) => listeners.add(listener),
    off: (_event, listener) => listeners.delete(listener),
  };
  return { pool: { connect: async () => connection }, statements, released, listeners };
}

const steps: SchemaMigration[] = [
  { version: 1, description: 'one', sql: (s) => `CREATE TABLE ${s}.one ()` },
  { version: 2, description: 'two', sql: (s) => `CREATE TABLE ${s}.two ()` },
];
const options = {
  schemaName: 'x',
  quotedSchema: '"x"',
  migrations: steps,
  lockClass: 7,
  tooNew: (v: number, k: number) => new Error(`too new: ${v} > ${k}`),
};

describe('migrateSchema', () => {
  it('applies the steps a schema lacks, in one transaction under the advisory lock, and gives the connection back', async () => {
    const fake = fakePool(1);
    expect(await migrateSchema(fake.pool, options)).toEqual({ from: 1, to: 2 });
    expect(fake.statements[0]).toBe('BEGIN');
    expect(fake.statements[1]).toBe('SELECT pg_advisory_xact_lock($1, hashtext($2))');
    expect(fake.statements.filter((sql) => sql.startsWith('CREATE TABLE "x".'))).toEqual(['CREATE TABLE "x".two ()']);
    expect(fake.statements.at(-1)).toBe('COMMIT');
    expect(fake.released).toEqual([undefined]);
    expect(fake.listeners.size).toBe(0);
  });

  it('refuses a schema newer than it knows with the caller error, applying nothing, and drops the connection', async () => {
    const fake = fakePool(5);
    await expect(migrateSchema(fake.pool, options)).rejects.toThrow('too new: 5 > 2');
    expect(fake.statements.some((sql) => sql.startsWith('CREATE TABLE "x".'))).toBe(false);
    expect(fake.statements.at(-1)).toBe('ROLLBACK');
    expect(fake.released).toEqual([true]);
  });

  it('rolls back when a step fails', async () => {
    const fake = fakePool(null, '"x".two');
    await expect(migrateSchema(fake.pool, options)).rejects.toThrow('failed');
    expect(fake.statements).not.toContain('COMMIT');
    expect(fake.statements.at(-1)).toBe('ROLLBACK');
    expect(fake.released).toEqual([true]);
  });
});
