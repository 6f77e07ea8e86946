// The README example, run with a scripted Model in place of OpenAI's (no key, no network).
import { createOpenAIAgentsTools } from '@libos/openai-agents';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { Agent, run, setTracingDisabled, Usage } from '@openai/agents';

const script = [
  [
    'write_text_file',
    '{"path":"notes/hello.txt","content":"hello from the agent\\n","encoding":null,"overwrite":null,"expected_content_sha256":null}',
  ],
  ['read_text_file', '{"path":"notes/missing.txt","encoding":null,"max_bytes":null}'],
  ['read_text_file', '{"path":"notes/hello.txt","encoding":null,"max_bytes":null}'],
];
const model = {
  async getResponse() {
    const step = script.shift();
    const output = step
      ? [{ type: 'function_call', callId: `call_${script.length}`, name: step[0], arguments: step[1], status: 'completed' }]
      : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'All done.' }] }];
    return { usage: new Usage(), output };
  },
  getStreamedResponse() {
    throw new Error('not streamed');
  },
};
setTracingDisabled(true);

const runtime = await createRuntime({ provider: createMemfsProvider() });
const agent = new Agent({ name: 'workspace', model /* e.g. 'gpt-4.1' */, tools: createOpenAIAgentsTools(runtime.spawn()) });
const result = await run(agent, 'Write a hello note, then read it back.');
for (const item of result.newItems) {
  if (item.type === 'tool_call_output_item') console.log(`${item.rawItem.name} ->`, item.output);
}
console.log(result.finalOutput);
await runtime.close();
