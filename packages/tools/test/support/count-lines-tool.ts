import { LibosError } from '@libos/core';
import { z } from 'zod';
import { defineTool } from '../../src/index.js';

/** A user's tool, written only against the public surface: counts the lines of a text file. */
export const countLines = defineTool({
  name: 'count_lines',
  title: 'Count lines',
  description: 'Counts the newline-separated lines of a UTF-8 file. Fails with not_found or not_a_file.',
  inputSchema: (bounds) =>
    z.strictObject({
      path: z.string().describe('The file, relative to the working directory.'),
      max_bytes: z.number().int().min(1).max(bounds.read_max_bytes_limit).default(bounds.read_max_bytes_default),
    }),
  outputSchema: z.strictObject({ path: z.string(), lines: z.number().int().min(0), truncated: z.boolean() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const path = context.resolvePath(input.path);
    const permit = await context.authorize({ right: 'read', path, target: 'file' });
    permit.spend();
    const status = await context.provider.stat(path);
    if (status.kind === 'missing') throw new LibosError('not_found', `The file "${path}" does not exist.`, { details: { path } });
    const read = await context.provider.readFile(path, { maxBytes: input.max_bytes });
    const text = new TextDecoder().decode(read.bytes.subarray(0, input.max_bytes));
    const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    return { path, lines, truncated: read.truncated || read.bytes.length > input.max_bytes };
  },
});
