import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { Agent, RunContext, Runner, Usage, setTracingDisabled, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIAgentsTools, stripOptionalNulls, toStrictSchema } from '../src/index.js';

type Call = { name: string; arguments: string };

/** A Model (the SDK's own interface) answering one scripted step per turn and recording every request. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  #turn = 0;
  constructor(private readonly steps: readonly (Call[] | string)[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(structuredClone(request));
    const turn = this.#turn++;
    const step = this.steps[turn] ?? 'out of script';
    const output: ModelResponse['output'] =
      typeof step === 'string'
        ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step }] }]
        : step.map((call, position) => ({
            type: 'function_call',
            callId: `call_${turn}_${position}`,
            name: call.name,
            arguments: call.arguments,
            status: 'completed',
          }));
    return { usage: new Usage(), output, responseId: `response_${turn}` };
  }

  // biome-ignore lint/correctness/useYield: the loop under test never streams
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in these tests');
  }
}

/** The function_call_result items the model was given in one request, by call id. */
function results(request: ModelRequest): Map<string, string> {
  const items = Array.isArray(request.input) ? request.input : [];
  const found = new Map<string, string>();
  for (const item of items as { type?: string; callId?: string; output?: unknown }[]) {
    if (item.type !== 'function_call_result' || item.callId === undefined) continue;
    const output = item.output as string | { type: string; text?: string };
    found.set(item.callId, typeof output === 'string' ? output : (output.text ?? JSON.stringify(output)));
  }
  return found;
}

async function workspace() {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.writeFile('notes/todo.txt', 'buy milk\n');
  const runtime = await createRuntime({ provider });
  return { runtime, fixtures, process: runtime.spawn() };
}

beforeAll(() => setTracingDisabled(true));

describe('createOpenAIAgentsTools in an Agents SDK run', () => {
  it('lists, reads, fails, recovers and writes in strict mode; nulls for optional fields count as absent', async () => {
    const { runtime, fixtures, process } = await workspace();
    const model = new ScriptedModel([
      [{ name: 'read_directory', arguments: '{"path":"notes","limit":null}' }],
      [{ name: 'read_text_file', arguments: '{"path":"notes/todo.md","encoding":null,"max_bytes":null}' }],
      [{ name: 'read_text_file', arguments: '{"path":null,"encoding":null,"max_bytes":null}' }],
      [{ name: 'read_text_file', arguments: '{"path":"notes/todo.txt","encoding":null,"max_bytes":null}' }],
      [
        {
          name: 'write_text_file',
          arguments: '{"path":"notes/done.txt","content":"bought milk\\n","encoding":null,"overwrite":false,"expected_content_sha256":null}',
        },
      ],
      'Done: notes/done.txt written.',
    ]);
    const agent = new Agent({ name: 'workspace agent', instructions: 'Use the workspace tools.', model, tools: createOpenAIAgentsTools(process) });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'Tick off my todo list.', { maxTurns: 10 });

    expect(result.finalOutput).toBe('Done: notes/done.txt written.');
    expect(await fixtures.readFile('notes/done.txt')).toEqual(new TextEncoder().encode('bought milk\n'));
    expect(model.requests).toHaveLength(6);

    const listed = results(model.requests[1]!).get('call_0_0')!;
    expect(JSON.parse(listed)).toMatchObject({ path: 'notes', count: 1, entries: [{ name: 'todo.txt' }] });
    // A failure reaches the model as libOS's error object, never as a look-alike of content.
    expect(JSON.parse(results(model.requests[2]!).get('call_1_0')!)).toMatchObject({
      error: { code: 'not_found', effect: 'none', message: expect.stringContaining('notes/todo.md') },
    });
    // A null for a required field is still refused, by libOS, field by field.
    expect(JSON.parse(results(model.requests[3]!).get('call_2_0')!)).toMatchObject({
      error: { code: 'invalid_arguments', message: expect.stringMatching(/^Invalid arguments for read_text_file: path: /) },
    });
    // A success is the result JSON once.
    const read = results(model.requests[4]!).get('call_3_0')!;
    expect(JSON.parse(read)).toEqual({
      path: 'notes/todo.txt',
      content: 'buy milk\n',
      encoding: 'utf-8',
      bytes_read: 9,
      truncated: false,
      content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(model.requests[5]!.input).split('buy milk').length - 1).toBe(1);
    expect(JSON.parse(results(model.requests[5]!).get('call_4_0')!)).toEqual({ path: 'notes/done.txt', bytes_written: 12, created: true });
    await runtime.close();
  });

  it('answers arguments that are not JSON without calling the runtime', async () => {
    const { process } = await workspace();
    const calls: string[] = [];
    const counting = { tools: process.tools, call: (name: string, args?: unknown) => (calls.push(name), process.call(name, args)) };
    const model = new ScriptedModel([[{ name: 'read_text_file', arguments: '{"path": "notes/todo.txt",' }], 'gave up']);
    const [read] = createOpenAIAgentsTools(counting, { tools: ['read_text_file'] });
    await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'a', model, tools: [read!] }), 'read', { maxTurns: 3 });
    // The runner answers a parse failure itself, before any tool code runs.
    expect(results(model.requests[1]!).get('call_0_0')).toContain('valid JSON');
    // Invoked directly, the tool's own error function answers in libOS's terms.
    expect(JSON.parse(String(await read!.invoke(new RunContext(), '{"path": ')))).toEqual({
      error: { code: 'invalid_arguments', message: 'The arguments of read_text_file must be a JSON object.', effect: 'none' },
    });
    expect(calls).toEqual([]);
    expect(JSON.parse(String(await read!.invoke(new RunContext(), '{"path":"nope","encoding":null,"max_bytes":null}')))).toMatchObject({
      error: { code: 'not_found' },
    });
    expect(calls).toEqual(['read_text_file']);
  });

  it('refuses a __proto__ key in the arguments as invalid_arguments, as the runtime does, at any depth', async () => {
    const { process, fixtures } = await workspace();
    const [read, edit] = createOpenAIAgentsTools(process, { tools: ['read_text_file', 'edit_text_file'] });
    const direct = await process.call('read_text_file', JSON.parse('{"path":"notes/todo.txt","__proto__":{"x":1}}'));
    expect(direct).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    const viaAdapter = JSON.parse(
      String(await read!.invoke(new RunContext(), '{"path":"notes/todo.txt","encoding":null,"max_bytes":null,"__proto__":{"x":1}}')),
    );
    expect(viaAdapter).toMatchObject({ error: { code: 'invalid_arguments', effect: 'none' } });
    // Nested inside an edit: the edit does not land without the key, it is refused.
    const arguments_ =
      '{"path":"notes/todo.txt","encoding":null,"expected_content_sha256":null,"edits":[{"old_text":"milk","new_text":"tea","replace_all":null,"__proto__":{}}]}';
    expect(JSON.parse(String(await edit!.invoke(new RunContext(), arguments_)))).toMatchObject({ error: { code: 'invalid_arguments' } });
    expect(Buffer.from((await fixtures.readFile('notes/todo.txt'))!).toString()).toBe('buy milk\n');
    expect(Object.keys(stripOptionalNulls({ type: 'object', properties: {} }, JSON.parse('{"__proto__":1}')) as object)).toEqual(['__proto__']);
  });

  it('sends strict schemas: every field required, optional ones nullable with their default described', async () => {
    const { runtime, process } = await workspace();
    const model = new ScriptedModel(['nothing to do']);
    const agent = new Agent({ name: 'a', model, tools: createOpenAIAgentsTools(process) });
    await new Runner({ tracingDisabled: true }).run(agent, 'hi');
    const sent = model.requests[0]!.tools as { type: string; name: string; strict: boolean; parameters: Record<string, unknown> }[];
    expect(sent.map((tool) => tool.name)).toEqual(runtime.tools.map((tool) => tool.name));
    const read = sent.find((tool) => tool.name === 'read_text_file')!;
    expect(read.strict).toBe(true);
    expect(read.parameters).toMatchObject({
      type: 'object',
      required: ['path', 'encoding', 'max_bytes', 'start_line', 'tail_lines'],
      additionalProperties: false,
      properties: {
        path: { type: 'string' },
        max_bytes: {
          anyOf: [{ type: 'integer', minimum: 1, maximum: runtime.bounds.read_max_bytes_limit }, { type: 'null' }],
          description: expect.stringContaining('null for the default (65536)'),
        },
      },
    });
    expect(JSON.stringify(sent)).not.toContain('"default"');
    for (const tool of sent) expectStrict(tool.parameters);

    const subset = createOpenAIAgentsTools(process, { tools: ['read_text_file'], descriptions: { read_text_file: 'Read a note.' } });
    expect(subset.map((tool) => [tool.name, tool.description])).toEqual([['read_text_file', 'Read a note.']]);
  });
});

/** What OpenAI strict mode demands of every object schema, at any depth. */
function expectStrict(schema: unknown): void {
  if (Array.isArray(schema)) {
    for (const entry of schema) expectStrict(entry);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const record = schema as Record<string, unknown>;
  if (record.properties !== undefined) {
    expect(record.additionalProperties).toBe(false);
    expect(record.required).toEqual(Object.keys(record.properties as object));
  }
  Object.values(record).forEach(expectStrict);
}

describe('strict schema helpers', () => {
  const schema = {
    type: 'object',
    properties: {
      path: { type: 'string' },
      edits: {
        type: 'array',
        items: {
          type: 'object',
          properties: { old_text: { type: 'string' }, replace_all: { type: 'boolean', default: false } },
          required: ['old_text'],
        },
      },
      note: { type: ['string', 'null'] },
    },
    required: ['path', 'edits'],
    additionalProperties: false,
  };

  it('makes nested optional fields nullable and keeps a field that already allows null as it is', () => {
    const strict = toStrictSchema(schema) as { properties: Record<string, Record<string, unknown>> };
    expect(strict.properties.note).toEqual({ type: ['string', 'null'] });
    expect((strict.properties.edits!.items as Record<string, unknown>).required).toEqual(['old_text', 'replace_all']);
  });

  it('drops nulls of optional fields at any depth, keeps those of required or nullable fields', () => {
    expect(stripOptionalNulls(schema, { path: null, edits: [{ old_text: null, replace_all: null }], note: null })).toEqual({
      path: null,
      edits: [{ old_text: null }],
      note: null,
    });
  });
});
