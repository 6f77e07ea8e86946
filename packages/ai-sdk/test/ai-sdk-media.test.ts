import { Buffer } from 'node:buffer';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createAiSdkTools } from '../src/index.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

describe('read_media_file through the AI SDK', () => {
  it('hands the model an image part for an image and a file part for a PDF, the bytes once, next to the other fields as text', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    await fixtures.writeFile('shots/a.png', PNG);
    await fixtures.writeFile('docs/spec.pdf', PDF);
    const runtime = await createRuntime({ provider });
    const prompts: unknown[] = [];
    let step = 0;
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt);
        step++;
        if (step > 1) return { content: [{ type: 'text', text: 'seen' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
        return {
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'read_media_file', input: JSON.stringify({ path: 'shots/a.png' }) },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'read_media_file', input: JSON.stringify({ path: 'docs/spec.pdf' }) },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      },
    });
    await generateText({ model, tools: createAiSdkTools(runtime.spawn()), stopWhen: stepCountIs(3), prompt: 'Look.' });
    const last = prompts[prompts.length - 1] as { role: string; content: { type: string; output: { type: string; value: unknown[] } }[] }[];
    const outputs = last.filter((message) => message.role === 'tool').flatMap((message) => message.content.map((part) => part.output));
    expect(outputs).toHaveLength(2);
    const [image, pdf] = outputs as { type: string; value: Record<string, unknown>[] }[];
    expect(image!.type).toBe('content');
    expect(image!.value[1]).toMatchObject({ data: PNG.toString('base64'), mediaType: 'image/png' });
    // ai 7 turns the image part into its own file form on the way to the model.
    expect(['image-data', 'file-data', 'file']).toContain(image!.value[1]!.type);
    expect(JSON.parse(image!.value[0]!.text as string)).toMatchObject({ path: 'shots/a.png', media_type: 'image', size_bytes: PNG.length });
    expect(image!.value[0]!.text).not.toContain(PNG.toString('base64'));
    expect(pdf!.value[1]).toMatchObject({ mediaType: 'application/pdf' });
    expect(JSON.stringify(pdf!.value[1])).toContain(PDF.toString('base64'));
  });
});
