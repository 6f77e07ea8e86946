import { Buffer } from 'node:buffer';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { RunContext } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { createOpenAIAgentsApplyPatchTool, createOpenAIAgentsTools } from '../src/index.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 5]);
const MP3 = Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1');

async function workspace() {
  const { provider, fixtures } = createMemfsTestbed();
  const runtime = await createRuntime({ provider });
  return { process: runtime.spawn(), fixtures };
}

describe('OpenAI Agents: media and the native apply-patch tool', () => {
  it('hands an image as an image item and audio as a file item, with the other fields as text', async () => {
    const { process, fixtures } = await workspace();
    await fixtures.writeFile('a.png', PNG);
    await fixtures.writeFile('b.mp3', MP3);
    const [media] = createOpenAIAgentsTools(process, { tools: ['read_media_file'] });
    const image = await media!.invoke(new RunContext(), '{"path":"a.png","max_bytes":null}');
    expect(image).toEqual([
      { type: 'text', text: expect.stringContaining('"mime_type":"image/png"') },
      { type: 'image', image: { data: PNG.toString('base64'), mediaType: 'image/png' } },
    ]);
    const audio = await media!.invoke(new RunContext(), '{"path":"b.mp3","max_bytes":null}');
    expect((audio as unknown[])[1]).toEqual({ type: 'file', file: { data: MP3.toString('base64'), mediaType: 'audio/mpeg', filename: 'b.mp3' } });
    const refused = await media!.invoke(new RunContext(), '{"path":"nope.png","max_bytes":null}');
    expect(JSON.parse(String(refused))).toMatchObject({ error: { code: 'not_found' } });
  });

  it('offers apply_patch as the SDK apply-patch tool whose editor lands each operation through the runtime', async () => {
    const { process, fixtures } = await workspace();
    await fixtures.writeFile('src/a.txt', 'one\ntwo\n');
    await fixtures.writeFile('old.txt', 'x\n');
    const patchTool = createOpenAIAgentsApplyPatchTool(process);
    expect(patchTool.type).toBe('apply_patch');
    const { editor } = patchTool;
    expect(await editor.createFile({ type: 'create_file', path: 'new.txt', diff: '+hello\n+world\n' })).toMatchObject({ status: 'completed' });
    expect(await editor.updateFile({ type: 'update_file', path: 'src/a.txt', moveTo: 'src/b.txt', diff: '@@\n one\n-two\n+2\n' })).toMatchObject({
      status: 'completed',
    });
    expect(await editor.deleteFile({ type: 'delete_file', path: 'old.txt' })).toMatchObject({ status: 'completed' });
    expect(Buffer.from((await fixtures.readFile('new.txt'))!).toString()).toBe('hello\nworld\n');
    expect(Buffer.from((await fixtures.readFile('src/b.txt'))!).toString()).toBe('one\n2\n');
    expect(await fixtures.kindOf('old.txt')).toBe('missing');
    const escape = await editor.createFile({ type: 'create_file', path: '../outside.txt', diff: '+x\n' });
    expect(escape).toMatchObject({ status: 'failed' });
    expect(JSON.parse(escape!.output!)).toMatchObject({ error: { code: 'outside_workspace', effect: 'none' } });
    const git = await editor.updateFile({ type: 'update_file', path: '.git/config', diff: '@@\n-a\n+b\n' });
    expect(JSON.parse(git!.output!)).toMatchObject({ error: { code: 'protected_path' } });
  });
});
