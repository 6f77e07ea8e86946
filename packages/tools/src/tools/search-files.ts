import { Buffer } from 'node:buffer';
import { type Bounds, LibosError, type Permit, type WorkspacePath } from '@libos/core';
import { z } from 'zod';
import { resolveEncoding, type TextCodec } from '../encodings/index.js';
import { atRealPath } from '../names/at-real-path.js';
import type { LineMatch } from '../search/find-in-text.js';
import { literalPrefilter } from '../search/literal-prefilter.js';
import { openSearchSnapshot } from '../search/open-search-snapshot.js';
import { foldedSearchNeedles, searchNeedles } from '../search/search-needles.js';
import { createTextSearcher, type TextSearcher } from '../search/text-searcher.js';
import { DEADLINE_PASSED, startWalkClock, type WalkClock } from '../search/walk-clock.js';
import { PATTERN_MAX_LENGTH, compileWalkFilters, walkInputFields, walkOutputFields, type WalkStop } from '../search/walk-inputs.js';
import { walkSearchTree, type WalkedFile, type WalkLimits } from '../search/walk-search-tree.js';
import { defineTool, type ToolContext } from '../tool-definition.js';
import { boundedIntegerField, encodingField, identityField, pathField } from './tool-fields.js';

/** How many entries the walk may list per file it may read: directories and skipped names cost too. */
const ENTRIES_PER_FILE = 4;

const matchSchema = z.strictObject({
  path: identityField,
  line: z.number().int().min(1),
  column: z.number().int().min(1).describe('1-based, in code points.'),
  text: z.string().describe('The matching line, at most 500 code points, without its line ending.'),
});

const inputSchema = (bounds: Bounds) =>
  z.strictObject({
    path: pathField('The directory to search in.'),
    query: z.string().min(1).max(PATTERN_MAX_LENGTH).describe('The text (or, with regex, the RE2 pattern) to find.'),
    regex: z.boolean().default(false).describe('Treat query as an RE2 regular expression (default false: a literal).'),
    case_sensitive: z.boolean().default(true).describe('Match letter case exactly (default true).'),
    glob: z.string().min(1).max(PATTERN_MAX_LENGTH).optional().describe('Only files whose name (or, with a /, path below path) matches.'),
    encoding: encodingField,
    max_results: boundedIntegerField(100, bounds.search_results_max, `Most matches to return (default 100, at most ${bounds.search_results_max}).`),
    max_files: boundedIntegerField(1000, bounds.search_files_max, `Most files to read (default 1000, at most ${bounds.search_files_max}).`),
    ...walkInputFields,
    max_bytes_per_file: boundedIntegerField(
      bounds.read_max_bytes_default,
      bounds.read_max_bytes_limit,
      `Bytes read from the start of each file (default ${bounds.read_max_bytes_default}, at most ${bounds.read_max_bytes_limit}).`,
    ),
  });

type SearchInput = z.output<ReturnType<typeof inputSchema>>;

/** `search_files`: finds a literal or an RE2 pattern in the files of a tree the process may read. */
export const searchFiles = defineTool({
  name: 'search_files',
  title: 'Search files',
  description:
    'Searches the text of the files under a directory for `query`, a literal string by default or, with `regex: true`, ' +
    'an RE2 regular expression (linear-time matching: no backreferences or lookarounds; an invalid pattern fails with ' +
    'invalid_arguments). Matching is per line; each matching line is reported once, at its first match, as ' +
    '{path, line, column, text}. `glob` keeps only files whose name matches (`*`, `?`, `[...]`; with a `/`, the whole ' +
    'path below `path`, where `**` spans directories); `exclude` globs skip files and whole directories. By default ' +
    'what .gitignore files ignore is skipped, as git would (respect_gitignore: false searches it too); skipped_ignored ' +
    'counts what was skipped that way. The walk goes depth first in name order and never follows a link, enters a ' +
    'mount point or .git, nor reads a file or directory the policy does not let this call read: those are left out ' +
    'without a trace. Each file is read up to `max_bytes_per_file` and decoded with `encoding`; files that do not ' +
    'decode are skipped, and partial_files counts the files searched in that prefix only. `stopped` names what ended ' +
    'the walk early (max_results, max_files, result_bytes, or deadline after deadline_ms), with `truncated` true; ' +
    'a result with stopped set or partial_files above 0 does not prove that nothing more matches. Fails with ' +
    'not_found, not_a_directory, symlink_refused or denied for the directory itself.',
  inputSchema,
  outputSchema: z.strictObject({
    path: identityField,
    matches: z.array(matchSchema),
    count: z.number().int().min(0),
    truncated: z.boolean().describe('True when a bound stopped the walk before the whole tree was searched.'),
    files_searched: z.number().int().min(0).describe('Files read and searched.'),
    partial_files: z
      .number()
      .int()
      .min(0)
      .describe('Files that hold more than max_bytes_per_file and were searched in that prefix only: a match past it is not reported.'),
    ...walkOutputFields,
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const codec = resolveEncoding(input.encoding);
    const filters = await compileWalkFilters('search_files', input.glob, input.exclude);
    const root = context.resolvePath(input.path);
    const clock = startWalkClock(input.deadline_ms, context.signal, root);
    try {
      // Starting and compiling is bounded by the deadline too: past it, the search answers with nothing found, stopped there.
      const searcher = await createTextSearcher(
        input.query,
        { regex: input.regex, caseSensitive: input.case_sensitive, owner: context.process.id },
        clock,
      ).catch((error: unknown) => {
        if (error === DEADLINE_PASSED) return undefined;
        throw error;
      });
      try {
        const limits: WalkLimits = {
          maxFiles: input.max_files,
          maxEntries: ENTRIES_PER_FILE * input.max_files + context.bounds.list_limit_max,
          respectGitignore: input.respect_gitignore,
          ...filters,
        };
        const permit = await context.authorize({ right: 'read', path: root, target: 'directory' });
        permit.spend();
        // The walk starts by opening its root, so a root spelled otherwise is found at no cost to the exact one.
        const searched = await atRealPath(context, root, (real) => search(input, context, real, permit, clock, searcher, codec, limits));
        return searched.value;
      } finally {
        searcher?.close();
      }
    } finally {
      clock.dispose();
    }
  },
});

async function search(
  input: SearchInput,
  context: ToolContext,
  root: WorkspacePath,
  permit: Permit,
  clock: WalkClock,
  searcher: TextSearcher | undefined,
  codec: TextCodec,
  limits: WalkLimits,
) {
  const matches: (LineMatch & { path: string })[] = [];
  let filesSearched = 0;
  let partialFiles = 0;
  const progress = { skippedIgnored: 0 };
  let stopped: WalkStop | null = null;
  // Room for the result's other fields at their largest; each match is measured as it is added.
  let bytesLeft =
    context.bounds.result_max_bytes -
    Buffer.byteLength(
      JSON.stringify({
        path: root,
        matches: [],
        count: 0,
        truncated: false,
        files_searched: 0,
        partial_files: 0,
        skipped_ignored: 0,
        stopped: 'result_bytes',
      }),
      'utf8',
    ) -
    64;
  const mayMatch = literalPrefilter(input.query, { regex: input.regex, caseSensitive: input.case_sensitive, encoding: codec.name });
  try {
    if (searcher === undefined) throw DEADLINE_PASSED;
    const asked = { query: input.query, regex: input.regex, caseSensitive: input.case_sensitive, encoding: codec.name };
    const query = {
      needles: searchNeedles(asked),
      foldedNeedles: foldedSearchNeedles(asked),
      maxBytes: input.max_bytes_per_file,
      maxEntries: limits.maxEntries,
    };
    const top = await openSearchSnapshot(context, root, query, clock);
    // Synchronous for a file the provider vouched for: a promise per passed-by file is most of a warm search's cost.
    const visit = (file: WalkedFile): boolean | Promise<boolean> => {
      if (file.mayHold) return searchFile(file);
      // The provider searched it where it lives and vouched it holds none of the search.
      filesSearched++;
      if ((file.entry.sizeBytes ?? 0) > input.max_bytes_per_file) partialFiles++;
      return true;
    };
    const searchFile = async ({ path, read: readPrefix }: WalkedFile) => {
      const read = await readPrefix(input.max_bytes_per_file);
      if (read === undefined) return true;
      filesSearched++;
      const truncated = read.truncated || read.bytes.length > input.max_bytes_per_file;
      // Counted before anything else: a match past the prefix is never silently missing.
      if (truncated) partialFiles++;
      const bytes = read.bytes.length > input.max_bytes_per_file ? read.bytes.subarray(0, input.max_bytes_per_file) : read.bytes;
      // A file that cannot hold the literal has no match to report, decodable or not.
      if (mayMatch !== undefined && !mayMatch(bytes)) return true;
      const text = passByDecode(() => codec.decode(bytes, { truncated }));
      if (text === undefined) return true;
      for (const found of await searcher.find(text, input.max_results - matches.length + 1)) {
        if (matches.length === input.max_results) {
          stopped = 'max_results';
          return false;
        }
        const match = { path, line: found.line, column: found.column, text: found.text };
        const cost = Buffer.byteLength(JSON.stringify(match), 'utf8') + 1;
        if (cost > bytesLeft) {
          stopped = 'result_bytes';
          return false;
        }
        bytesLeft -= cost;
        matches.push(match);
      }
      return true;
    };
    const cut = await walkSearchTree(context, root, permit, limits, clock, progress, visit, top);
    // The walk ended on its own bounds (files or entries) when nothing above stopped it.
    if (cut && stopped === null) stopped = 'max_files';
  } catch (error) {
    if (error !== DEADLINE_PASSED) throw error;
    stopped = 'deadline';
  }
  return {
    path: root,
    matches,
    count: matches.length,
    truncated: stopped !== null,
    files_searched: filesSearched,
    partial_files: partialFiles,
    skipped_ignored: progress.skippedIgnored,
    stopped,
  };
}

function passByDecode(decode: () => string): string | undefined {
  try {
    return decode();
  } catch (error) {
    if (LibosError.is(error, 'decode_failed')) return undefined;
    throw error;
  }
}
