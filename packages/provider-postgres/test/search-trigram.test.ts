import { Buffer } from 'node:buffer';
import type { WorkspacePath } from '@libos/core';
import fc from 'fast-check';
import pg from 'pg';
import { expect, it, onTestFinished, vi } from 'vitest';
import { CHUNK_BYTES, createPostgresProvider } from '../src/index.js';
import { likeNeedle } from '../src/like-needles.js';
import { TRIGRAM_INDEX } from '../src/migration-v3.js';
import { describePostgres, freshSchema, postgresUrl, pushedAndWalked, testPool, testProvider } from './postgres.js';

const p = (path: string) => path as WorkspacePath;
const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

// Bytes a LIKE or an escape could misread: its wildcards and escape, NUL, invalid UTF-8, case pairs.
const piece = fc.constantFrom<Uint8Array>(
  ...['a', 'b', 'ab', 'foo', 'AB', 'é', 'É', '\n', '\r\n', '%', '_', '\\', '\\\\', 'x', 'bar', '😀', '303', '\\303', ' '].map(bytesOf),
  Uint8Array.of(0),
  Uint8Array.of(0xff),
  Uint8Array.of(0xc3),
  Uint8Array.of(0xe9),
  Uint8Array.of(0xc3, 0xa9),
);
const bytesFrom = (min: number, max: number) =>
  fc.array(piece, { minLength: min, maxLength: max }).map((parts) => new Uint8Array(Buffer.concat(parts)));
const holds = (haystack: Uint8Array, needle: Uint8Array) => Buffer.from(haystack).indexOf(Buffer.from(needle)) !== -1;

describePostgres('search_files on PostgreSQL with the trigram index', () => {
  it('spells every byte as PostgreSQL does, so a LIKE on the spelling keeps every file holding the needle', async () => {
    const pool = testPool(1);
    const every = Uint8Array.from({ length: 256 }, (_, byte) => byte);
    const { rows } = await pool.query<{ spelled: string }>(`SELECT encode($1::bytea, 'escape') AS spelled`, [Buffer.from(every)]);
    // The pattern's spelling, LIKE's own escapes taken off, is PostgreSQL's.
    expect(
      likeNeedle(every)
        .slice(1, -1)
        .replace(/\\([\\%_])/g, '$1'),
    ).toBe(rows[0]!.spelled);
    await fc.assert(
      fc.asyncProperty(bytesFrom(0, 12), bytesFrom(1, 3), async (haystack, needle) => {
        const { rows: found } = await pool.query<{ kept: boolean }>(`SELECT encode($1::bytea, 'escape') LIKE $2 AS kept`, [
          Buffer.from(haystack),
          likeNeedle(needle),
        ]);
        if (holds(haystack, needle)) expect(found[0]!.kept).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('marks exactly the files whose searched bytes hold every needle, binary and invalid UTF-8 included', async () => {
    const provider = testProvider();
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(bytesFrom(0, 10), { minLength: 1, maxLength: 8 }),
        fc.array(bytesFrom(1, 3), { minLength: 1, maxLength: 2 }),
        fc.constantFrom(3, 8, 65536),
        async (contents, needles, maxBytes) => {
          const root = `r${round++}`;
          for (const [index, bytes] of contents.entries()) await provider.writeFile(p(`${root}/d${index % 2}/f${index}`), bytes, { overwrite: true });
          const answer = await provider.searchTree(p(root), {
            needles,
            alwaysNames: ['.gitignore'],
            maxBytes,
            maxEntries: 100,
            maxCarriedBytes: 1 << 20,
          });
          expect(answer.complete).toBe(true);
          const files = answer.entries.filter((entry) => entry.kind === 'file');
          expect(files).toHaveLength(contents.length);
          for (const entry of files) {
            const index = Number(entry.name.slice(1));
            const searched = contents[index]!.subarray(0, maxBytes);
            expect({ name: entry.name, candidate: entry.candidate }).toEqual({
              name: entry.name,
              candidate: needles.every((needle) => holds(searched, needle)),
            });
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps a file whose needle runs across its first chunk into the second, which the index does not see', async () => {
    const provider = testProvider();
    const big = new Uint8Array(CHUNK_BYTES + 100).fill(0x2e);
    big.set(bytesOf('needleFOUND'), CHUNK_BYTES - 6);
    await provider.writeFile(p('big/f'), big, { overwrite: false });
    await provider.writeFile(p('big/g'), bytesOf('hay'), { overwrite: false });
    const answer = await provider.searchTree(p('big'), {
      needles: [bytesOf('needleFOUND')],
      alwaysNames: [],
      maxBytes: 2 * CHUNK_BYTES,
      maxEntries: 10,
      maxCarriedBytes: 0,
    });
    expect(answer.entries.map((entry) => [entry.name, entry.candidate]).sort()).toEqual([
      ['f', true],
      ['g', false],
    ]);
  });

  it('answers search_files exactly as the walk does, for RE2 corner cases, on files of any bytes', async () => {
    const provider = testProvider();
    const [agent, walker] = await pushedAndWalked(provider);
    const search = fc.oneof(
      fc.record({ query: fc.constantFrom('foo', 'é', 'É', '%', '_', 'a_b', '\\', '100%', 'foobar', '303', 'AB'), regex: fc.constant(false) }),
      fc.record({
        query: fc.constantFrom(
          '(?s)foo.bar',
          '\\bfoo\\b',
          '(?m)^foo$',
          '^foo',
          'bar$',
          '(?i)foo',
          '(?i)é',
          'É',
          '\\x{e9}',
          '\\pL+foo',
          'foo\\\\',
          'a%_',
          'fo{2}',
          'f(oo)bar',
          '[é]foo',
          '\\Qfoo.\\E',
          'foo|bar',
          '\\Bfoo',
          'foo\\z',
          '\\Afoo',
        ),
        regex: fc.constant(true),
      }),
    );
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(bytesFrom(0, 12), { minLength: 1, maxLength: 8 }), search, fc.boolean(), async (contents, args, caseSensitive) => {
        const root = `r${round++}`;
        for (const [index, bytes] of contents.entries()) await provider.writeFile(p(`${root}/f${index}.txt`), bytes, { overwrite: true });
        const call = { path: root, ...args, case_sensitive: caseSensitive };
        const name: string = 'search_files';
        expect(await agent.call(name, call)).toEqual(await walker.call(name, call));
      }),
      { numRuns: 80 },
    );
  });

  it('the migration makes the index, and the planner takes it for the search statement', async () => {
    const pool = testPool(2);
    const sent: { text: string; values: unknown[] }[] = [];
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && Array.isArray(args[1])) sent.push({ text: args[0], values: args[1] });
      return query(...args);
    };
    const schema = freshSchema();
    const provider = testProvider({ pool, schema });
    for (let file = 0; file < 200; file++) {
      await provider.writeFile(p(`src/f${file}.txt`), bytesOf(`const value${file} = compute(${file});\n`.repeat(20)), { overwrite: false });
    }
    await provider.writeFile(p('src/a.txt'), bytesOf('const needle = 1;\n'), { overwrite: false });
    await pool.query(`ANALYZE "${schema}".chunks`);
    sent.length = 0;
    await provider.searchTree(p('src'), { needles: [bytesOf('needle')], alwaysNames: [], maxBytes: 1000, maxEntries: 1000, maxCarriedBytes: 1000 });
    const statement = sent.find((one) => one.text.includes('hits'));
    expect(statement).toBeDefined();
    const { rows } = await pool.query(`EXPLAIN ${statement!.text}`, statement!.values);
    expect(rows.map((row: Record<string, string>) => Object.values(row)[0]).join('\n')).toContain(`Bitmap Index Scan on ${TRIGRAM_INDEX}`);
  });

  it('where pg_trgm may not be created, the schema migrates without the index, the process is told once, and search narrows the same', async () => {
    const suffix = `${process.pid}_${Date.now()}`;
    const [database, role] = [`libos_trgm_${suffix}`, `libos_trgm_${suffix}`];
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    onTestFinished(async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    });
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.query(`GRANT CREATE ON DATABASE ${database} TO ${role}`);
    // The policy of a database whose owner allows no extension: any CREATE EXTENSION is refused as a privilege.
    const inDatabase = new pg.Client({ connectionString: urlFor(database) });
    await inDatabase.connect();
    await inDatabase.query(`CREATE FUNCTION refuse_extensions() RETURNS event_trigger LANGUAGE plpgsql AS $fn$
      BEGIN RAISE EXCEPTION 'extensions are not allowed here' USING ERRCODE = 'insufficient_privilege'; END $fn$`);
    await inDatabase.query(
      `CREATE EVENT TRIGGER refuse_extensions ON ddl_command_start WHEN TAG IN ('CREATE EXTENSION') EXECUTE FUNCTION refuse_extensions()`,
    );
    await inDatabase.end();
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    onTestFinished(() => warn.mockRestore());
    const open = () => createPostgresProvider({ connectionString: urlFor(database, role), schema: 'plain', workspace: 'w' });
    const provider = open();
    const again = open();
    onTestFinished(async () => {
      await provider.close();
      await again.close();
    });
    await provider.writeFile(p('src/a.txt'), bytesOf('const needle = 1;\n'), { overwrite: false });
    await provider.writeFile(p('src/b.txt'), bytesOf('hay\n'), { overwrite: false });
    await again.open();
    const check = new pg.Client({ connectionString: urlFor(database) });
    await check.connect();
    const { rows: made } = await check.query(`SELECT version FROM plain.schema_migrations ORDER BY version`);
    const { rows: indexes } = await check.query(`SELECT 1 FROM pg_indexes WHERE schemaname = 'plain' AND indexname = $1`, [TRIGRAM_INDEX]);
    await check.end();
    expect(made.map((row: { version: number }) => row.version)).toEqual([1, 2, 3]);
    expect(indexes).toHaveLength(0);
    expect(warn.mock.calls.filter(([, options]) => JSON.stringify(options).includes('LIBOS_POSTGRES_NO_TRIGRAM_INDEX'))).toHaveLength(1);
    const answer = await provider.searchTree(p('src'), {
      needles: [bytesOf('needle')],
      alwaysNames: [],
      maxBytes: 1000,
      maxEntries: 10,
      maxCarriedBytes: 1000,
    });
    expect(answer.entries.map((entry) => [entry.name, entry.candidate]).sort()).toEqual([
      ['a.txt', true],
      ['b.txt', false],
    ]);
  });
});

function urlFor(database: string, user?: string): string {
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;
  if (user !== undefined) url.username = user;
  return url.toString();
}
