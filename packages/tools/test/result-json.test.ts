import { Buffer } from 'node:buffer';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BUILTIN_TOOLS, createRuntime, defineTool, resultJson, resultJsonBytes } from '../src/index.js';

afterEach(() => vi.restoreAllMocks());

describe('resultJson', () => {
  it('gives the JSON text measured when the call returned, without serializing the result again', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    for (let index = 0; index < 50; index++) await fixtures.writeFile(`d/file-${index}.txt`, 'x'.repeat(index));
    const runtime = await createRuntime({ provider });
    const outcome = await runtime.spawn().call('read_directory', { path: 'd' });
    if (!outcome.ok) expect.fail(outcome.error.message);
    const expected = JSON.stringify(outcome.result);
    const stringify = vi.spyOn(JSON, 'stringify');
    expect(resultJson(outcome.result)).toBe(expected);
    expect(resultJsonBytes(outcome.result)).toBe(Buffer.byteLength(expected));
    expect(stringify).not.toHaveBeenCalled();
    await runtime.close();
  });

  it('follows a tool that returns one object it changes between calls: each call is measured anew', async () => {
    const shared = { text: '' };
    const echo = defineTool({
      name: 'echo_shared',
      title: 'Echo',
      description: 'Returns its text in the same object every time.',
      inputSchema: () => z.strictObject({ text: z.string() }),
      outputSchema: z.strictObject({ text: z.string() }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      execute: async (input) => Object.assign(shared, { text: input.text }),
    });
    const runtime = await createRuntime({ provider: createMemfsTestbed().provider, tools: [...BUILTIN_TOOLS, echo] });
    const process = runtime.spawn();
    const first = await process.call('echo_shared', { text: 'one' });
    if (!first.ok) expect.fail(first.error.message);
    expect(resultJson(first.result)).toBe('{"text":"one"}');
    const second = await process.call('echo_shared', { text: 'two' });
    if (!second.ok) expect.fail(second.error.message);
    expect(resultJson(second.result)).toBe('{"text":"two"}');
    await runtime.close();
  });

  it('serializes a value no call returned', () => {
    expect(resultJson({ path: 'a', created: true })).toBe('{"path":"a","created":true}');
    expect(resultJsonBytes({ name: 'é' })).toBe(Buffer.byteLength('{"name":"é"}'));
  });
});
