import { z } from 'zod';
import { atRealPath } from '../names/at-real-path.js';
import { defineTool } from '../tool-definition.js';
import { boundedIntegerField, identityField, pathField } from './tool-fields.js';

const entrySchema = z.strictObject({
  name: z.string(),
  path: identityField,
  kind: z.enum(['file', 'directory', 'symlink', 'other']),
  size_bytes: z.number().int().min(0).nullable().describe('Size of a regular file in bytes; null for anything else.'),
  modified_at: z.string().describe('Last modification time, ISO 8601 UTC.'),
});

/** `read_directory`: lists one level of a directory in code-point order of names. */
export const readDirectory = defineTool({
  name: 'read_directory',
  title: 'Read directory',
  description:
    'Lists the entries directly inside a directory (one level, not recursive), sorted by name in Unicode code-point order. ' +
    'Each entry gives its name, its path from the workspace root, its kind (file, directory, symlink or other), ' +
    'its size in bytes for regular files (null otherwise) and its modification time. Links are listed, never followed. ' +
    'At most `limit` entries are returned; `truncated` is true when the directory holds more. ' +
    'Fails with not_found, not_a_directory or symlink_refused.',
  inputSchema: (bounds) =>
    z.strictObject({
      path: pathField('The directory to list.'),
      limit: boundedIntegerField(
        bounds.list_limit_default,
        bounds.list_limit_max,
        `Maximum number of entries to return (default ${bounds.list_limit_default}, at most ${bounds.list_limit_max}).`,
      ),
    }),
  outputSchema: z.strictObject({
    path: identityField,
    entries: z.array(entrySchema),
    count: z.number().int().min(0).describe('Number of entries returned.'),
    truncated: z.boolean().describe('True when the directory holds more entries than were returned.'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const path = context.resolvePath(input.path);
    const permit = await context.authorize({ right: 'read', path, target: 'directory' });
    permit.spend();
    const located = await atRealPath(context, path, (real) => context.provider.listDirectory(real, { limit: input.limit, signal: context.signal }));
    const listing = located.value;
    const entries = listing.entries.slice(0, input.limit).map((entry) => ({
      name: entry.name,
      path: entry.path,
      kind: entry.kind,
      size_bytes: entry.kind === 'file' ? entry.sizeBytes : null,
      modified_at: entry.modifiedAt,
    }));
    return {
      path: located.path,
      entries,
      count: entries.length,
      truncated: listing.truncated || listing.entries.length > input.limit,
    };
  },
});
