import { Buffer } from 'node:buffer';
import { afterEach, describe, expect, it } from 'vitest';
import { openClient } from './support/generation-client.js';
import { EVERY_WAY, type Generation, type Served, serve, type TransportName } from './support/generations.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const WAV = Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1');
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** An SDK v2 client of `generation` over `transport`, to a workspace holding the media files. */
async function connected(generation: Generation, transport: TransportName) {
  served = await serve(transport, { files: { 'shot.png': PNG, 'sound.bin': WAV, 'docs/a b.pdf': PDF, 'notes.txt': 'text' } });
  return openClient(served, generation);
}

describe.each(EVERY_WAY)('read_media_file over MCP $generation ($transport)', ({ generation, transport }) => {
  it('is listed with an output schema that leaves the bytes to the media block', async () => {
    const client = await connected(generation, transport);
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'read_media_file')!;
    expect(listed.annotations).toMatchObject({ readOnlyHint: true });
    expect(Object.keys(listed.outputSchema!.properties!).sort()).toEqual(['media_type', 'mime_type', 'path', 'sha256', 'size_bytes']);
    expect(listed.outputSchema!.required).not.toContain('data');
  });

  it('answers an image with an image block, audio with an audio block and a PDF with an embedded application/pdf resource, bytes once', async () => {
    const client = await connected(generation, transport);
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
    const client = await connected(generation, transport);
    const refused = await client.callTool({ name: 'read_media_file', arguments: { path: 'notes.txt' } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as { text: string }[])[0]!.text)).toMatchObject({
      error: { code: 'decode_failed', effect: 'none', details: { detected_type: 'text/plain' } },
    });
  });
});
