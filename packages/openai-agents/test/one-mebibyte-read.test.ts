import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { Agent, Runner, Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { expect, it } from 'vitest';
import { createOpenAIAgentsTools } from '../src/index.js';

it('one read of a 1 MiB file puts the content in front of the model once', async () => {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.writeFile('big.txt', 'a'.repeat(1_048_576));
  const runtime = await createRuntime({ provider });
  const direct = await runtime.spawn().call('read_text_file', { path: 'big.txt', max_bytes: 1_048_576 });
  const requests: ModelRequest[] = [];
  const model: Model = {
    async getResponse(request): Promise<ModelResponse> {
      requests.push(request);
      const output: ModelResponse['output'] =
        requests.length === 1
          ? [{ type: 'function_call', callId: 'c1', name: 'read_text_file', arguments: '{"path":"big.txt","encoding":null,"max_bytes":1048576}' }]
          : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'read' }] }];
      return { usage: new Usage(), output };
    },
    getStreamedResponse: () => {
      throw new Error('not streamed');
    },
  };
  const agent = new Agent({ name: 'reader', model, tools: createOpenAIAgentsTools(runtime.spawn()) });
  await new Runner({ tracingDisabled: true }).run(agent, 'read big.txt');
  const items = (requests[1]!.input as { type?: string }[]).filter((item) => item.type === 'function_call_result');
  const characters = JSON.stringify(items).length;
  const resultCharacters = JSON.stringify(direct.ok && direct.result).length;
  console.log(`OpenAI Agents: ${characters} characters of tool results reach the model for a ${resultCharacters}-character result`);
  expect(JSON.stringify(items).split('a'.repeat(1_048_576)).length - 1).toBe(1);
  expect(characters).toBeLessThan(resultCharacters + 300);
});
