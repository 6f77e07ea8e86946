import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { createLangChainTools } from '../src/index.js';

async function workspace() {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.writeFile('notes/todo.txt', 'buy milk\n');
  const runtime = await createRuntime({ provider });
  return { runtime, fixtures, process: runtime.spawn() };
}

const toolMessages = (messages: readonly BaseMessage[]) => messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));

describe('createLangChainTools in a createAgent loop', () => {
  it('lists, reads, fails, recovers and writes; failures are error ToolMessages and results appear once', async () => {
    const { runtime, fixtures, process } = await workspace();
    const model = fakeModel()
      .respondWithTools([{ name: 'read_directory', args: { path: 'notes' }, id: 'c1' }])
      .respondWithTools([{ name: 'read_text_file', args: { path: 'notes/todo.md' }, id: 'c2' }])
      .respondWithTools([{ name: 'read_text_file', args: { path: 'notes/todo.txt', max_bytes: '64' }, id: 'c3' }])
      .respondWithTools([{ name: 'read_text_file', args: { path: 'notes/todo.txt' }, id: 'c4' }])
      .respondWithTools([{ name: 'write_text_file', args: { path: 'notes/done.txt', content: 'bought milk\n', overwrite: false }, id: 'c5' }])
      .respond(new AIMessage('Done: notes/done.txt written.'));
    const agent = createAgent({ model, tools: createLangChainTools(process) });
    const state = await agent.invoke({ messages: [new HumanMessage('Tick off my todo list.')] });

    expect(state.messages.at(-1)?.content).toBe('Done: notes/done.txt written.');
    expect(await fixtures.readFile('notes/done.txt')).toEqual(new TextEncoder().encode('bought milk\n'));
    const [listed, missing, badArgs, read, written] = toolMessages(state.messages);
    expect(listed).toMatchObject({ status: 'success', tool_call_id: 'c1' });
    expect(JSON.parse(listed!.content as string)).toMatchObject({ path: 'notes', count: 1, entries: [{ name: 'todo.txt' }] });

    // A failure is LangChain's own error signal: status "error", with libOS's code, message and effect.
    expect(missing).toMatchObject({ status: 'error', tool_call_id: 'c2', name: 'read_text_file' });
    expect(JSON.parse(missing!.content as string)).toMatchObject({ error: { code: 'not_found', effect: 'none' } });
    // An argument mistake is answered by libOS, field by field, not by LangChain's schema check.
    expect(badArgs?.status).toBe('error');
    expect(badArgs?.content).not.toContain('did not match expected schema');
    expect(JSON.parse(badArgs!.content as string)).toMatchObject({
      error: { code: 'invalid_arguments', message: expect.stringMatching(/^Invalid arguments for read_text_file: max_bytes: /) },
    });

    // A success is the result JSON once: no artifact, no second copy in what the model reads next.
    expect(read).toMatchObject({ status: 'success', artifact: undefined });
    expect(JSON.parse(read!.content as string)).toEqual({
      path: 'notes/todo.txt',
      content: 'buy milk\n',
      encoding: 'utf-8',
      bytes_read: 9,
      truncated: false,
      content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // (the fake model echoes its input into its own AI messages, so only the tool messages are counted)
    const given = toolMessages(model.calls.at(-1)!.messages).map((message) => [message.content, message.artifact ?? null]);
    expect(JSON.stringify(given).split('buy milk').length - 1).toBe(1);
    expect(JSON.parse(written!.content as string)).toEqual({ path: 'notes/done.txt', bytes_written: 12, created: true });
    expect(model.callCount).toBe(6);
    await runtime.close();
  });

  it('gives the model the runtime input schemas, and honours a subset and descriptions', async () => {
    const { runtime, process } = await workspace();
    const tools = createLangChainTools(process);
    expect(tools.map((tool) => tool.name)).toEqual(runtime.tools.map((tool) => tool.name));
    // What a provider model's bindTools sends (ChatOpenAI and the others convert each tool this way).
    const { $schema: _draft, ...readSchema } = runtime.tools.find((tool) => tool.name === 'read_text_file')!.inputSchema;
    const read = tools.find((tool) => tool.name === 'read_text_file')!;
    expect(convertToOpenAITool(read)).toEqual({
      type: 'function',
      function: { name: 'read_text_file', description: read.description, parameters: readSchema },
    });
    expect(toJsonSchema(read.schema)).toEqual(readSchema);

    const subset = createLangChainTools(process, { tools: ['read_text_file'], descriptions: { read_text_file: 'Read a note.' } });
    expect(subset.map((tool) => [tool.name, tool.description])).toEqual([['read_text_file', 'Read a note.']]);
    expect(() => createLangChainTools(process, { tools: ['read_txt_file'] })).toThrow(/no tool named "read_txt_file"/);
  });

  it('invoked directly, returns the result JSON or throws the LibosError', async () => {
    const { process } = await workspace();
    const [read] = createLangChainTools(process, { tools: ['read_text_file'] });
    expect(JSON.parse((await read!.invoke({ path: 'notes/todo.txt' })) as string)).toMatchObject({ content: 'buy milk\n' });
    await expect(read!.invoke({ path: 'nope.txt' })).rejects.toMatchObject({ name: 'LibosError', code: 'not_found', effect: 'none' });
    const message = await read!.invoke({ type: 'tool_call', id: 'x1', name: 'read_text_file', args: { path: 'nope.txt' } });
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message).toMatchObject({ status: 'error', tool_call_id: 'x1' });
  });

  it('refuses a __proto__ key in the arguments as invalid_arguments, in an agent loop and invoked directly', async () => {
    const { fixtures, process } = await workspace();
    const hostile = () => JSON.parse('{"path":"notes/todo.txt","edits":[{"old_text":"milk","new_text":"tea"}],"__proto__":{"x":1}}');
    const model = fakeModel()
      .respondWithTools([{ name: 'edit_text_file', args: hostile(), id: 'p1' }])
      .respond(new AIMessage('done'));
    const agent = createAgent({ model, tools: createLangChainTools(process) });
    const state = await agent.invoke({ messages: [new HumanMessage('edit')] });
    const [answer] = toolMessages(state.messages);
    expect(answer).toMatchObject({ status: 'error', tool_call_id: 'p1' });
    expect(JSON.parse(answer!.content as string)).toMatchObject({ error: { code: 'invalid_arguments', effect: 'none' } });
    const [edit] = createLangChainTools(process, { tools: ['edit_text_file'] });
    await expect(edit!.invoke(hostile())).rejects.toMatchObject({ name: 'LibosError', code: 'invalid_arguments' });
    expect(await fixtures.readFile('notes/todo.txt')).toEqual(new TextEncoder().encode('buy milk\n'));
  });
});
