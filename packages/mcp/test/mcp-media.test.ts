import { Buffer } from 'node:buffer';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/create-mcp-server.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const WAV = Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1');
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

async function connected() {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.writeFile('shot.png', PNG);
  await fixtures.writeFile('sound.bin', WAV);
  await fixtures.writeFile('docs/a b.pdf', PDF);
  await fixtures.writeFile('notes.txt', 'text');
  const runtime = await createRuntime({ provider });
  const server = createMcpServer(runtime, { version: '0.0.0-test' });
  const client = new Client({ name: 'media-test', version: '0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

describe('read_media_file over MCP', () => {
  it('is listed with an output schema that leaves the bytes to the media block', async () => {
    const client = await connected();
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'read_media_file')!;
    expect(listed.annotations).toMatchObject({ readOnlyHint: true });
    expect(Object.keys(listed.outputSchema!.properties!).sort()).toEqual(['media_type', 'mime_type', 'path', 'sha256', 'size_bytes']);
    expect(listed.outputSchema!.required).not.toContain('data');
  });

  it('answers an image with an image block, audio with an audio block and a PDF with an embedded application/pdf resource, bytes once', async () => {
    const client = await connected();
    const image = await client.callTool({ name: 'read_media_file', arguments: { path: 'shot.png' } });
    expect(image.isError ?? false).toBe(false);
    expect(image.content).toEqual([
      { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
      { type: 'text', text: JSON.stringify(image.structuredContent) },
    ]);
    expect(image.structuredContent).toMatchObject({ path: 'shot.png', media_type: 'image', mime_type: 'image/png', size_bytes: PNG.length });
    expect(image.structuredContent).not.toHaveProperty('data');

    const sound = await client.callTool({ name: 'read_media_file', arguments: { path: 'sound.bin' } });
    expect((sound.content as unknown[])[0]).toEqual({ type: 'audio', data: WAV.toString('base64'), mimeType: 'audio/wav' });

    const pdf = await client.callTool({ name: 'read_media_file', arguments: { path: 'docs/a b.pdf' } });
    expect((pdf.content as unknown[])[0]).toEqual({
      type: 'resource',
      resource: { uri: 'libos-workspace:///docs/a%20b.pdf', mimeType: 'application/pdf', blob: PDF.toString('base64') },
    });
  });

  it('refuses a file that is none of the types as a tool failure with the detected type', async () => {
    const client = await connected();
    const refused = await client.callTool({ name: 'read_media_file', arguments: { path: 'notes.txt' } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as { text: string }[])[0]!.text)).toMatchObject({
      error: { code: 'decode_failed', effect: 'none', details: { detected_type: 'text/plain' } },
    });
  });
});
