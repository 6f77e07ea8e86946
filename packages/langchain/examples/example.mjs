// The README example, run with LangChain's fake model in place of a real one (no key, no network).
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createLangChainTools } from '@libos/langchain';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { createAgent } from 'langchain';

const model = fakeModel()
  .respondWithTools([{ name: 'write_text_file', args: { path: 'notes/hello.txt', content: 'hello from the agent\n' }, id: 'c1' }])
  .respondWithTools([{ name: 'read_text_file', args: { path: 'notes/missing.txt' }, id: 'c2' }])
  .respondWithTools([{ name: 'read_text_file', args: { path: 'notes/hello.txt' }, id: 'c3' }])
  .respond(new AIMessage('All done.'));

const runtime = await createRuntime({ provider: createMemfsProvider() });
const agent = createAgent({ model /* e.g. new ChatOpenAI({ model: 'gpt-4.1' }) */, tools: createLangChainTools(runtime.spawn()) });
const { messages } = await agent.invoke({ messages: [new HumanMessage('Write a hello note, then read it back.')] });
for (const message of messages) {
  if (message.type === 'tool') console.log(`${message.name} [${message.status}] ->`, message.content);
}
console.log(messages.at(-1).content);
await runtime.close();
