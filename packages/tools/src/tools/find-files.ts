import { Buffer } from 'node:buffer';
import type { WorkspacePath } from '@libos/core';
import { z } from 'zod';
import { atRealPath } from '../names/at-real-path.js';
import { DEADLINE_PASSED, startWalkClock } from '../search/walk-clock.js';
import { PATTERN_MAX_LENGTH, compileWalkFilters, walkInputFields, walkOutputFields, type WalkStop } from '../search/walk-inputs.js';
import { walkSearchTree } from '../search/walk-search-tree.js';
import { defineTool } from '../tool-definition.js';
import { boundedIntegerField, identityField, pathField } from './tool-fields.js';

const fileSchema = z.strictObject({
  path: identityField,
  size_bytes: z.number().int().min(0).describe('Size in bytes, as listed.'),
  modified_at: z.string().describe('Last modification time, ISO 8601 UTC.'),
});

/** `find_files`: lists the regular files of a tree whose path matches a glob, without opening them. */
export const findFiles = defineTool({
  name: 'find_files',
  title: 'Find files',
  description:
    'Lists the regular files under a directory whose name matches `glob` (`*`, `?`, `[...]`; with a `/`, the whole path ' +
    'below `path`, where `**` spans directories: "**/*.test.ts"), as {path, size_bytes, modified_at}, without opening ' +
    'them. The walk is the one search_files makes: depth first in name order, never following a link, entering a mount ' +
    'point or .git, nor listing what the policy does not let this call read; what .gitignore files ignore is skipped ' +
    'unless respect_gitignore is false, `exclude` globs skip files and whole directories, and skipped_ignored counts ' +
    'both. At most max_results files are returned; `stopped` names what ended the walk early (max_results, max_files ' +
    'for the walk’s own bound on entries listed, result_bytes, or deadline after deadline_ms), with `truncated` true. ' +
    'Fails with not_found, not_a_directory, symlink_refused or denied for the directory itself.',
  inputSchema: (bounds) =>
    z.strictObject({
      path: pathField('The directory to search in.'),
      glob: z.string().min(1).max(PATTERN_MAX_LENGTH).describe('The files to list: a name pattern, or with a / a path pattern below path.'),
      ...walkInputFields,
      max_results: boundedIntegerField(100, bounds.search_results_max, `Most files to return (default 100, at most ${bounds.search_results_max}).`),
    }),
  outputSchema: z.strictObject({
    path: identityField,
    files: z.array(fileSchema),
    count: z.number().int().min(0),
    truncated: z.boolean().describe('True when a bound stopped the walk before the whole tree was seen.'),
    ...walkOutputFields,
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const filters = await compileWalkFilters('find_files', input.glob, input.exclude);
    const root = context.resolvePath(input.path);
    const permit = await context.authorize({ right: 'read', path: root, target: 'directory' });
    permit.spend();
    const clock = startWalkClock(input.deadline_ms, context.signal, root);
    try {
      // The walk starts by opening its root, so a root spelled otherwise is found at no cost to the exact one.
      return (await atRealPath(context, root, (real) => find(real))).value;
    } finally {
      clock.dispose();
    }

    async function find(root: WorkspacePath) {
      const files: z.output<typeof fileSchema>[] = [];
      const progress = { skippedIgnored: 0 };
      let stopped: WalkStop | null = null;
      let bytesLeft =
        context.bounds.result_max_bytes -
        Buffer.byteLength(
          JSON.stringify({ path: root, files: [], count: 0, truncated: false, skipped_ignored: 0, stopped: 'result_bytes' }),
          'utf8',
        ) -
        64;
      try {
        // Listing is all a find does, so the walk's bound is on entries: as many as search_files may read files.
        const maxEntries = context.bounds.search_files_max;
        const cut = await walkSearchTree(
          context,
          root,
          permit,
          { maxFiles: input.max_results + 1, maxEntries, respectGitignore: input.respect_gitignore, ...filters },
          clock,
          progress,
          ({ path, entry }) => {
            if (files.length === input.max_results) {
              stopped = 'max_results';
              return false;
            }
            const file = { path, size_bytes: entry.sizeBytes ?? 0, modified_at: entry.modifiedAt };
            const cost = Buffer.byteLength(JSON.stringify(file), 'utf8') + 1;
            if (cost > bytesLeft) {
              stopped = 'result_bytes';
              return false;
            }
            bytesLeft -= cost;
            files.push(file);
            return true;
          },
        );
        if (cut && stopped === null) stopped = 'max_files';
      } catch (error) {
        if (error !== DEADLINE_PASSED) throw error;
        stopped = 'deadline';
      }
      return { path: root, files, count: files.length, truncated: stopped !== null, skipped_ignored: progress.skippedIgnored, stopped };
    }
  },
});
