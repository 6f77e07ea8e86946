import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { expect, it } from 'vitest';
import { createAiSdkTools } from '../src/index.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

it('one read of a 1 MiB file puts the content in front of the model once', async () => {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.writeFile('big.txt', 'a'.repeat(1_048_576));
  const runtime = await createRuntime({ provider });
  const direct = await runtime.spawn().call('read_text_file', { path: 'big.txt', max_bytes: 1_048_576 });
  const model = new MockLanguageModelV3({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_text_file', input: '{"path":"big.txt","max_bytes":1048576}' }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'read' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
    ],
  });
  await generateText({ model, tools: createAiSdkTools(runtime.spawn()), stopWhen: stepCountIs(3), prompt: 'read big.txt' });
  const given = model.doGenerateCalls[1]!.prompt.filter((message) => message.role === 'tool');
  const characters = JSON.stringify(given).length;
  const resultCharacters = JSON.stringify(direct.ok && direct.result).length;
  console.log(`AI SDK: ${characters} characters of tool messages reach the model for a ${resultCharacters}-character result`);
  expect(JSON.stringify(given).split('a'.repeat(1_048_576)).length - 1).toBe(1);
  expect(characters).toBeLessThan(resultCharacters + 300);
});
