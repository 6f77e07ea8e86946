import { Buffer } from 'node:buffer';
import { ToolMessage } from '@langchain/core/messages';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { createLangChainTools } from '../src/index.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7]);
const OGG = Buffer.from('OggS\x00\x02\x00\x00', 'latin1');
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

describe('read_media_file through LangChain', () => {
  it('answers a tool call with standard image, audio and file content blocks, the bytes once', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    await fixtures.writeFile('a.png', PNG);
    await fixtures.writeFile('b.ogg', OGG);
    await fixtures.writeFile('c.pdf', PDF);
    const runtime = await createRuntime({ provider });
    const media = createLangChainTools(runtime.spawn(), { tools: ['read_media_file'] })[0]!;
    const cases: [string, Buffer, string, string][] = [
      ['a.png', PNG, 'image', 'image/png'],
      ['b.ogg', OGG, 'audio', 'audio/ogg'],
      ['c.pdf', PDF, 'file', 'application/pdf'],
    ];
    for (const [path, bytes, type, mimeType] of cases) {
      const message = (await media.invoke({ type: 'tool_call', id: `id-${path}`, name: 'read_media_file', args: { path } })) as ToolMessage;
      expect(message).toBeInstanceOf(ToolMessage);
      expect(message.tool_call_id).toBe(`id-${path}`);
      const [text, block] = message.content as Record<string, unknown>[];
      expect(block).toEqual({ type, mimeType, data: bytes.toString('base64') });
      expect(JSON.parse(text!.text as string)).toMatchObject({ path, size_bytes: bytes.length });
      expect(text!.text).not.toContain(bytes.toString('base64'));
    }
    const refused = (await media.invoke({ type: 'tool_call', id: 'x', name: 'read_media_file', args: { path: 'missing.png' } })) as ToolMessage;
    expect(refused.status).toBe('error');
  });
});
