import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { BUILTIN_TOOLS, createRuntime, defineTool } from '@libos/tools';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAiSdkTools } from '../src/index.js';

type Call = { name: string; input: Record<string, unknown> };

/** The SDK's own mock model, answering with one scripted step per generation and recording each prompt. */
function scriptedModel(steps: readonly (Call[] | string)[]) {
  let index = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const step = steps[index++] ?? 'out of script';
      const usage = {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      };
      if (typeof step === 'string') {
        return { content: [{ type: 'text', text: step }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      }
      return {
        content: step.map((call, position) => ({
          type: 'tool-call' as const,
          toolCallId: `call_${index}_${position}`,
          toolName: call.name,
          input: JSON.stringify(call.input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

/** The tool-result parts the model was given in one prompt. */
function toolOutputs(prompt: readonly { role: string; content: unknown }[]) {
  return prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content as { type: string; toolName: string; output: { type: string; value: unknown } }[]);
}

async function workspace() {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.writeFile('notes/todo.txt', 'buy milk\n');
  const runtime = await createRuntime({ provider });
  return { runtime, fixtures, process: runtime.spawn() };
}

describe('createAiSdkTools in a generateText agent loop', () => {
  it('lists, reads, fails, recovers and writes; the model gets failures as tool errors and results once', async () => {
    const { runtime, fixtures, process } = await workspace();
    const model = scriptedModel([
      [{ name: 'read_directory', input: { path: 'notes' } }],
      [{ name: 'read_text_file', input: { path: 'notes/todo.md' } }],
      [{ name: 'read_text_file', input: { path: 'notes/todo.txt', max_bytes: '64' } }],
      [{ name: 'read_text_file', input: { path: 'notes/todo.txt' } }],
      [{ name: 'write_text_file', input: { path: 'notes/done.txt', content: 'bought milk\n', overwrite: false } }],
      'Done: notes/done.txt written.',
    ]);
    const result = await generateText({
      model,
      tools: createAiSdkTools(process),
      stopWhen: stepCountIs(10),
      prompt: 'Tick off my todo list.',
    });

    expect(result.text).toBe('Done: notes/done.txt written.');
    expect(result.steps).toHaveLength(6);
    expect(await fixtures.readFile('notes/done.txt')).toEqual(new TextEncoder().encode('bought milk\n'));

    // The application sees the SDK's tool-error part carrying libOS's failure as is.
    const missing = result.steps[1]?.content.find((part) => part.type === 'tool-error');
    expect(missing).toMatchObject({
      toolName: 'read_text_file',
      error: { code: 'not_found', effect: 'none', message: expect.stringContaining('notes/todo.md') },
    });
    expect(result.steps[1]?.content.some((part) => part.type === 'tool-result')).toBe(false);

    // What the model was given: the failure as the SDK's error output, with code, message and effect.
    const calls = model.doGenerateCalls;
    const afterMissing = toolOutputs(calls[2]!.prompt).at(-1)!;
    expect(afterMissing.output.type).toBe('error-text');
    expect(JSON.parse(afterMissing.output.value as string)).toMatchObject({ code: 'not_found', effect: 'none' });
    // An argument error is libOS's own, field by field, not a schema-mismatch text of the SDK.
    const afterBadArgs = toolOutputs(calls[3]!.prompt).at(-1)!;
    expect(JSON.parse(afterBadArgs.output.value as string)).toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringMatching(/^Invalid arguments for read_text_file: max_bytes: /),
      details: { issues: [expect.objectContaining({ path: 'max_bytes' })] },
    });
    // A success is the result object, once, as JSON.
    const afterRead = toolOutputs(calls[4]!.prompt).at(-1)!;
    expect(afterRead.output).toEqual({
      type: 'json',
      value: {
        path: 'notes/todo.txt',
        content: 'buy milk\n',
        encoding: 'utf-8',
        bytes_read: 9,
        truncated: false,
        content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    const lastPrompt = JSON.stringify(calls[5]!.prompt);
    expect(lastPrompt.split('buy milk').length - 1).toBe(1);
    expect(toolOutputs(calls[5]!.prompt).at(-1)?.output).toEqual({
      type: 'json',
      value: { path: 'notes/done.txt', bytes_written: 12, created: true },
    });
    await runtime.close();
  });

  it('refuses a __proto__ key in the arguments, never calling the tool without it', async () => {
    const { runtime, fixtures, process } = await workspace();
    const calls: unknown[] = [];
    const counting = { tools: process.tools, call: (name: string, args?: unknown) => (calls.push(args), process.call(name, args)) };
    const hostile = JSON.parse('{"path":"notes/todo.txt","edits":[{"old_text":"milk","new_text":"tea"}],"__proto__":{"x":1}}');
    const model = scriptedModel([[{ name: 'edit_text_file', input: hostile }], 'done']);
    const result = await generateText({ model, tools: createAiSdkTools(counting), stopWhen: stepCountIs(3), prompt: 'edit' });
    // The SDK's own JSON parse (secure-json-parse) refuses the key before any tool code runs, so the
    // runtime is never called with the key silently gone; the model reads the SDK's refusal.
    expect(calls).toEqual([]);
    const answer = toolOutputs(model.doGenerateCalls[1]!.prompt).at(-1)!;
    expect(answer.output.type).toBe('error-text');
    expect(answer.output.value).toMatch(/Invalid input for tool edit_text_file/);
    expect(result.steps[0]?.content.find((part) => part.type === 'tool-error')).toBeDefined();
    expect(await fixtures.readFile('notes/todo.txt')).toEqual(new TextEncoder().encode('buy milk\n'));
    await runtime.close();
  });

  it('publishes every tool of the process with the runtime input schemas, and honours a subset and descriptions', async () => {
    const { runtime, process } = await workspace();
    const model = scriptedModel(['nothing to do']);
    await generateText({ model, tools: createAiSdkTools(process), prompt: 'hi' });
    const published = model.doGenerateCalls[0]!.tools as { type: string; name: string; inputSchema: Record<string, unknown> }[];
    expect(published.map((tool) => tool.name)).toEqual(runtime.tools.map((tool) => tool.name));
    const { $schema: _draft, ...readSchema } = runtime.tools.find((tool) => tool.name === 'read_text_file')!.inputSchema;
    expect(published.find((tool) => tool.name === 'read_text_file')?.inputSchema).toEqual(readSchema);

    const subset = createAiSdkTools(process, { tools: ['read_text_file'], descriptions: { read_text_file: 'Read a note.' } });
    expect(Object.keys(subset)).toEqual(['read_text_file']);
    expect(subset.read_text_file?.description).toBe('Read a note.');
    expect(() => createAiSdkTools(process, { tools: ['read_txt_file'] })).toThrow(/no tool named "read_txt_file"/);
  });

  it('serves a user tool added with createRuntime({ tools })', async () => {
    const shout = defineTool({
      name: 'shout',
      title: 'Shout',
      description: 'Upper-cases a text.',
      inputSchema: () => z.strictObject({ text: z.string() }),
      outputSchema: z.strictObject({ text: z.string() }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      execute: async (input) => ({ text: input.text.toUpperCase() }),
    });
    const runtime = await createRuntime({ provider: createMemfsTestbed().provider, tools: [...BUILTIN_TOOLS, shout] });
    const model = scriptedModel([[{ name: 'shout', input: { text: 'hi' } }], 'ok']);
    const result = await generateText({ model, tools: createAiSdkTools(runtime.spawn()), stopWhen: stepCountIs(3), prompt: 'x' });
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({ text: 'HI' });
  });
});
