import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTestbed } from './support/harness.js';

const found = (result: Record<string, unknown>) =>
  (result.matches as { path: string; line: number; column: number; text: string }[]).map(
    (match) => `${match.path}:${match.line}:${match.column}:${match.text}`,
  );

// RE2 syntax: every metacharacter escaped, so the pattern matches the literal and nothing else.
const quoted = (literal: string) => literal.replace(/[\\^$.|?*+()[\]{}]/gu, '\\$&');

describe('search_files for a literal', () => {
  it('finds exactly what the same text as an RE2 pattern finds, in files of any bytes, prefix cut or not', async () => {
    const bed = await createTestbed();
    const piece = fc.constantFrom('a', 'b', 'ab', '\n', '\r\n', 'é', '😀', '\ufeff', '.*', 'x');
    const byteRun = fc.oneof(
      { arbitrary: piece.map((text) => [...Buffer.from(text, 'utf8')]), weight: 9 },
      // Bytes that are not UTF-8, or a character cut in half.
      { arbitrary: fc.constantFrom([0xff], [0xc3], [0xf0, 0x9f]), weight: 1 },
    );
    const file = fc.array(byteRun, { maxLength: 30 }).map((runs) => new Uint8Array(runs.flat()));
    const scenario = fc.record({
      files: fc.array(file, { minLength: 1, maxLength: 4 }),
      query: fc.array(piece, { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join('')),
      encoding: fc.constantFrom('utf-8', 'utf-8-sig'),
      maxBytes: fc.constantFrom(5, 17, 65536),
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ files, query, encoding, maxBytes }) => {
        const directory = `r${round++}`;
        for (const [index, bytes] of files.entries()) await bed.fixtures.writeFile(`${directory}/f${index}.txt`, bytes);
        const common = { path: directory, encoding, max_bytes_per_file: maxBytes, max_results: 1000 };
        const literal = await bed.ok('search_files', { ...common, query });
        const pattern = await bed.ok('search_files', { ...common, query: quoted(query), regex: true });
        expect(found(literal)).toEqual(found(pattern));
        expect(literal.files_searched).toBe(pattern.files_searched);
      }),
      { numRuns: 300 },
    );
  });

  it('still finds half a surrogate pair the way the text holds it', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('e.txt', 'x 😀\n');
    expect(found(await bed.ok('search_files', { path: '.', query: '\ud83d' }))).toEqual(['e.txt:1:3:x 😀']);
  });
});
