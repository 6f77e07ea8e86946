// The README example, run with the AI SDK's mock model in place of a real one (no key, no network).
import { createAiSdkTools } from '@libos/ai-sdk';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

const script = [
  { toolName: 'write_text_file', input: { path: 'notes/hello.txt', content: 'hello from the agent\n' } },
  { toolName: 'read_text_file', input: { path: 'notes/missing.txt' } },
  { toolName: 'read_text_file', input: { path: 'notes/hello.txt' } },
];
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const model = new MockLanguageModelV3({
  doGenerate: async () => {
    const step = script.shift();
    if (step === undefined)
      return { content: [{ type: 'text', text: 'All done.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    const call = { type: 'tool-call', toolCallId: `call_${script.length}`, toolName: step.toolName, input: JSON.stringify(step.input) };
    return { content: [call], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
  },
});

const runtime = await createRuntime({ provider: createMemfsProvider() });
const { text, steps } = await generateText({
  model, // e.g. openai('gpt-4.1') from @ai-sdk/openai
  tools: createAiSdkTools(runtime.spawn()),
  stopWhen: stepCountIs(10),
  prompt: 'Write a hello note, then read it back.',
});
for (const part of steps.flatMap((step) => step.content)) {
  if (part.type === 'tool-result') console.log(`${part.toolName} ->`, JSON.stringify(part.output));
  if (part.type === 'tool-error') console.log(`${part.toolName} failed ->`, JSON.stringify(part.error));
}
console.log(text);
await runtime.close();
