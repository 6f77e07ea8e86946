import fc from 'fast-check';

/** One generated search: files to write below a fresh root, and the `search_files` arguments (without `path`). */
export interface SearchScenario {
  readonly files: readonly { readonly path: string; readonly bytes: Uint8Array }[];
  readonly args: Record<string, unknown>;
}

const directory = fc.constantFrom('a', 'b', 'src', 'deep/er', 'é');
const fileName = fc.constantFrom('x.txt', 'y.md', 'é.txt', 'Z', 'ab.txt');
const piece = fc.constantFrom('a', 'b', 'ab', 'foo', 'AB', 'é', 'É', '\n', '\r\n', ' ', 'x', '😀', '.', '{1}');
const text = fc.array(piece, { maxLength: 24 }).map((parts) => parts.join(''));
const ignoreLine = fc.constantFrom('*.md', 'b/', '!y.md', 'x.txt', '/src', '# note', 'deep/**/Z', 'é');

const file = fc.oneof(
  {
    arbitrary: fc.record({ path: fc.tuple(fc.array(directory, { maxLength: 2 }), fileName).map(([dirs, name]) => [...dirs, name].join('/')), text }),
    weight: 8,
  },
  {
    arbitrary: fc.record({
      path: fc.array(directory, { maxLength: 1 }).map((dirs) => [...dirs, '.gitignore'].join('/')),
      text: fc.array(ignoreLine, { minLength: 1, maxLength: 3 }).map((lines) => `${lines.join('\n')}\n`),
    }),
    weight: 1,
  },
);

const query = fc.oneof(
  fc.record({
    query: fc
      .array(piece, { minLength: 1, maxLength: 3 })
      .map((parts) => parts.join(''))
      .filter((q) => q.trim() !== ''),
    regex: fc.constant(false),
  }),
  fc.record({
    query: fc.constantFrom(
      'a.*b',
      'ab+',
      '^x',
      'é',
      '[ab]x',
      'foo|ab',
      '(?i)AB',
      'b$',
      'x\\b',
      'fo+',
      'a{2}',
      '\\{1\\}',
      '\\pLb',
      'É.',
      '(ab)+x',
      '.',
    ),
    regex: fc.constant(true),
  }),
);

/** Trees with ignore files, and searches over them with every option that changes what is read. */
export const searchScenario: fc.Arbitrary<SearchScenario> = fc
  .record({
    files: fc.uniqueArray(file, { minLength: 1, maxLength: 12, selector: (entry) => entry.path }),
    query,
    case_sensitive: fc.boolean(),
    respect_gitignore: fc.boolean(),
    glob: fc.constantFrom(undefined, '*.txt', 'a/**'),
    exclude: fc.constantFrom([], ['b'], ['*.md']),
    max_files: fc.constantFrom(1, 3, 1000),
    max_results: fc.constantFrom(2, 100),
    max_bytes_per_file: fc.constantFrom(4, 65536),
  })
  .map(({ files, query: searched, glob, ...options }) => ({
    files: files.map(({ path, text: content }) => ({ path, bytes: new TextEncoder().encode(content) })),
    args: { ...searched, ...options, ...(glob === undefined ? {} : { glob }) },
  }));
