import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { BUILTIN_TOOLS, createRuntime, defineTool } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openClient } from './support/generation-client.js';
import { EVERY_WAY, serve } from './support/generations.js';

// A user's tool, made with defineTool from the public surface only: the size of a file in lines.
const countLines = defineTool({
  name: 'count_lines',
  title: 'Count lines',
  description: 'Counts the lines of a UTF-8 file.',
  inputSchema: () => z.strictObject({ path: z.string() }),
  outputSchema: z.strictObject({ path: z.string(), lines: z.number().int() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const path = context.resolvePath(input.path);
    (await context.authorize({ right: 'read', path, target: 'file' })).spend();
    const { bytes } = await context.provider.readFile(path, { maxBytes: context.bounds.read_max_bytes_limit });
    return { path, lines: new TextDecoder().decode(bytes).split('\n').length };
  },
});

describe.each(EVERY_WAY)('a user tool over MCP, $generation over $transport', ({ generation, transport }) => {
  it('is listed with its schemas and called through the runtime pipeline', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    await fixtures.writeFile('a.txt', 'one\ntwo');
    const runtime = await createRuntime({
      provider,
      tools: [...BUILTIN_TOOLS, countLines],
      config: {
        grants: [
          { path: '.', tree: true, rights: ['read'] },
          { path: 'private', tree: true, rights: ['read'], mode: 'deny' },
        ],
      },
    });
    const served = await serve(transport, { runtime });
    const client = await openClient(served, generation);

    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'count_lines');
    expect(listed).toMatchObject({
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      outputSchema: { type: 'object', required: ['path', 'lines'] },
    });

    const counted = await client.callTool({ name: 'count_lines', arguments: { path: 'a.txt' } });
    expect(counted.structuredContent).toEqual({ path: 'a.txt', lines: 2 });

    const denied = await client.callTool({ name: 'count_lines', arguments: { path: 'private/x' } });
    expect(denied.isError).toBe(true);
    expect(JSON.parse((denied.content as { text: string }[])[0]!.text)).toMatchObject({ error: { code: 'denied', effect: 'none' } });

    const wrong = await client.callTool({ name: 'count_lines', arguments: { path: 'a.txt', lines: 1 } });
    expect(JSON.parse((wrong.content as { text: string }[])[0]!.text)).toMatchObject({
      error: { code: 'invalid_arguments', message: 'Invalid arguments for count_lines: arguments: unknown field "lines".' },
    });
    await client.close();
    await served.close();
    await runtime.close();
  });
});
