import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent } from 'langchain';
import { expect, it } from 'vitest';
import { createLangChainTools } from '../src/index.js';

it('one read of a 1 MiB file puts the content in front of the model once', async () => {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.writeFile('big.txt', 'a'.repeat(1_048_576));
  const runtime = await createRuntime({ provider });
  const direct = await runtime.spawn().call('read_text_file', { path: 'big.txt', max_bytes: 1_048_576 });
  const model = fakeModel()
    .respondWithTools([{ name: 'read_text_file', args: { path: 'big.txt', max_bytes: 1_048_576 }, id: 'c1' }])
    .respond(new AIMessage('read'));
  await createAgent({ model, tools: createLangChainTools(runtime.spawn()) }).invoke({ messages: [new HumanMessage('read big.txt')] });
  const given = model.calls[1]!.messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
  const characters = JSON.stringify(given.map((message) => [message.content, message.artifact ?? null])).length;
  const resultCharacters = JSON.stringify(direct.ok && direct.result).length;
  console.log(`LangChain: ${characters} characters of tool messages reach the model for a ${resultCharacters}-character result`);
  expect(given).toHaveLength(1);
  expect(given[0]!.artifact).toBeUndefined();
  expect(characters).toBeLessThan(resultCharacters * 1.01 + 300);
});
