import { LibosError } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_TOOLS, createRuntime, defineTool, type ToolDefinition } from '../src/index.js';
import { countLines } from './support/count-lines-tool.js';

async function runtimeWith(tools: readonly ToolDefinition[], config: Record<string, unknown> = {}) {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.writeFile('notes/a.txt', 'one\ntwo\nthree\n');
  const runtime = await createRuntime({ provider, tools, config });
  return { runtime, fixtures, process: runtime.spawn() };
}

const echo = (name: string, output: (input: { text: string }) => unknown, readOnly = true) =>
  defineTool({
    name,
    title: 'Echo',
    description: 'Returns its text.',
    inputSchema: () => z.strictObject({ text: z.string() }),
    outputSchema: z.strictObject({ text: z.string() }),
    annotations: { readOnlyHint: readOnly, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    execute: async (input) => output(input) as { text: string },
  });

describe('createRuntime({ tools })', () => {
  it('serves a user tool after the built-in ones, published with JSON Schemas like them', async () => {
    const { runtime, process } = await runtimeWith([...BUILTIN_TOOLS, countLines]);
    expect(runtime.tools.map((tool) => tool.name)).toEqual([...BUILTIN_TOOLS.map((tool) => tool.name), 'count_lines']);
    const summary = runtime.tools.at(-1);
    expect(summary?.inputSchema).toMatchObject({ type: 'object', required: ['path'], additionalProperties: false });
    expect(summary?.inputSchema).toMatchObject({ properties: { max_bytes: { maximum: runtime.bounds.read_max_bytes_limit } } });
    expect(process.tools).toBe(runtime.tools);
    expect(await process.call('count_lines', { path: 'notes/a.txt' })).toEqual({
      ok: true,
      result: { path: 'notes/a.txt', lines: 3, truncated: false },
    });
  });

  it('runs a user tool through the same pipeline: strict arguments, path rules, authority, bounds', async () => {
    const config = {
      grants: [
        { path: '.', tree: true, rights: ['read'] },
        { path: 'notes/secret.txt', rights: ['read'], mode: 'deny' },
      ],
      bounds: { arguments_max_bytes: 1024 },
    };
    const { process } = await runtimeWith([...BUILTIN_TOOLS, countLines], config);
    const failure = async (args: unknown) => {
      const outcome = await process.call('count_lines', args);
      if (outcome.ok) expect.fail(`count_lines succeeded: ${JSON.stringify(outcome.result)}`);
      return outcome.error;
    };
    expect(await failure({ path: 'notes/a.txt', extra: 1 })).toMatchObject({
      code: 'invalid_arguments',
      message: 'Invalid arguments for count_lines: arguments: unknown field "extra".',
      effect: 'none',
    });
    expect(await failure({ path: 'notes/a.txt', max_bytes: '5' })).toMatchObject({ code: 'invalid_arguments' });
    expect(await failure({ path: 'notes/a.txt', max_bytes: 0 })).toMatchObject({ code: 'invalid_arguments' });
    expect(await failure({ path: '../outside' })).toMatchObject({ code: 'outside_workspace', effect: 'none' });
    expect(await failure({ path: 'notes/.GIT/config' })).toMatchObject({ code: 'protected_path', effect: 'none' });
    expect(await failure({ path: 'notes/secret.txt' })).toMatchObject({ code: 'denied', effect: 'none' });
    expect(await failure({ path: 'x'.repeat(2000) })).toMatchObject({ code: 'arguments_too_large' });
    expect(await failure({ path: 'notes/none.txt' })).toMatchObject({ code: 'not_found', effect: 'none' });
  });

  it('bounds a user tool result and checks it against the tool output schema', async () => {
    const { process } = await runtimeWith(
      [
        echo('big', (input) => ({ text: input.text.repeat(100) })),
        echo('wrong', () => ({ text: 5 })),
        echo('wrong_write', () => ({ text: 'ok', more: true }), false),
        echo('nothing', () => undefined),
        echo('throws', () => {
          throw new Error('/srv/host/path exploded');
        }),
      ],
      { bounds: { result_max_bytes: 200 } },
    );
    expect(await process.call('big', { text: 'abc' })).toMatchObject({ ok: false, error: { code: 'result_too_large', effect: 'none' } });
    expect(await process.call('wrong', { text: 'abc' })).toMatchObject({
      ok: false,
      error: { code: 'provider_failure', effect: 'none', message: expect.stringContaining('does not match its output schema: text:') },
    });
    expect(await process.call('wrong_write', { text: 'abc' })).toMatchObject({ ok: false, error: { code: 'provider_failure', effect: 'unknown' } });
    expect(await process.call('nothing', { text: 'abc' })).toMatchObject({ ok: false, error: { code: 'provider_failure' } });
    const thrown = await process.call('throws', { text: 'abc' });
    expect(thrown).toMatchObject({ ok: false, error: { code: 'provider_failure' } });
    expect(JSON.stringify(thrown)).not.toContain('/srv/host');
  });

  it('a runtime with a subset of tools serves only those, and spawn({ cwd }) still checks the directory', async () => {
    const { runtime, process } = await runtimeWith([countLines]);
    expect(runtime.tools.map((tool) => tool.name)).toEqual(['count_lines']);
    expect(await process.call('read_text_file', { path: 'notes/a.txt' })).toMatchObject({
      ok: false,
      error: { code: 'unknown_tool', details: { available: ['count_lines'] } },
    });
    const child = await runtime.spawn({ cwd: 'notes' });
    expect(await child.call('count_lines', { path: 'a.txt' })).toMatchObject({ ok: true, result: { path: 'notes/a.txt', lines: 3 } });
    await expect(runtime.spawn({ cwd: 'notes/a.txt' })).rejects.toMatchObject({ code: 'not_a_directory' });
  });

  it('refuses a malformed or repeated tool at start, naming it', async () => {
    const { provider } = createMemfsTestbed();
    const refusal = async (tools: unknown, message: RegExp) => {
      const error = await createRuntime({ provider, tools: tools as ToolDefinition[] }).then(
        () => expect.fail('createRuntime accepted the tools'),
        (caught: unknown) => caught,
      );
      expect(LibosError.is(error, 'invalid_arguments')).toBe(true);
      expect((error as Error).message).toMatch(message);
    };
    await refusal([...BUILTIN_TOOLS, countLines, countLines], /Two tools are named "count_lines"/);
    await refusal([...BUILTIN_TOOLS, { ...countLines, name: 'read_text_file' }], /Two tools are named "read_text_file"/);
    await refusal([{ ...countLines, name: 'count lines!' }], /index 0 needs a name/);
    await refusal([{ ...countLines, description: ' ' }], /"count_lines" needs a title and a description/);
    await refusal([{ ...countLines, execute: undefined }], /needs inputSchema\(bounds\) and execute/);
    await refusal([{ ...countLines, annotations: {} }], /needs annotations/);
    await refusal([{ ...countLines, inputSchema: () => z.string() }], /must be an object schema/);
    await refusal([{ ...countLines, inputSchema: () => 'schema' }], /must return a zod schema/);
    await refusal([{ ...countLines, inputSchema: () => z.strictObject({ when: z.date() }) }], /cannot be written as JSON Schema/);
    await refusal('count_lines', /must be an array/);
  });
});
