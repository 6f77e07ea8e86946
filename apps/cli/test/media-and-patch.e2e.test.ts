import { Buffer } from 'node:buffer';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';
import { failureOf, startMcpSession } from './support/mcp-session.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let workspace: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  workspace = await temporaryDirectory();
});
afterAll(async () => {
  await workspace?.remove();
});

describe('read_media_file and apply_patch through the CLI', () => {
  it('serves a 5 MiB screenshot over libos mcp as one image block, and applies a patch on disk', async () => {
    const big = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(5 * 1024 * 1024 - PNG_SIGNATURE.length, 3)]);
    await writeFile(join(workspace.path, 'shot.png'), big);
    await writeFile(join(workspace.path, 'app.js'), 'const a = 1;\r\nconst b = 2;\r\n');
    const session = await startMcpSession(['--root', workspace.path]);
    try {
      const image = await session.call('read_media_file', { path: 'shot.png' });
      expect(image.isError ?? false).toBe(false);
      expect((image.content as { type: string; data?: string; mimeType?: string }[]).map((block) => block.type)).toEqual(['image', 'text']);
      expect(Buffer.from((image.content as { data: string }[])[0]!.data, 'base64').equals(big)).toBe(true);
      expect(image.structuredContent).toMatchObject({ path: 'shot.png', size_bytes: big.length, mime_type: 'image/png' });

      const patched = await session.call('apply_patch', {
        patch: '*** Begin Patch\n*** Update File: app.js\n const a = 1;\n-const b = 2;\n+const b = 3;\n*** End Patch\n',
      });
      expect(patched.isError ?? false).toBe(false);
      expect(await readFile(join(workspace.path, 'app.js'), 'utf8')).toBe('const a = 1;\r\nconst b = 3;\r\n');
      const escape = await session.call('apply_patch', { patch: '*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch' });
      expect(failureOf(escape)).toMatchObject({ code: 'outside_workspace', effect: 'none' });
    } finally {
      await session.close();
    }
  });

  it('has media and patch commands in libos shell', async () => {
    await writeFile(join(workspace.path, 'small.png'), Buffer.concat([PNG_SIGNATURE, Buffer.from('rest')]));
    await writeFile(join(workspace.path, 'notes.txt'), 'one\ntwo\n');
    const script = [
      'media small.png',
      'patch <<END',
      '*** Begin Patch',
      '*** Update File: notes.txt',
      ' one',
      '-two',
      '+2',
      '*** End Patch',
      'END',
    ].join('\n');
    const run = await runLibos(['shell', '--root', workspace.path], { input: script });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^small\.png: image\/png, 12 bytes, SHA-256 [0-9a-f]{64}$/mu);
    expect(run.stdout).toContain('update notes.txt\n');
    expect(run.stdout).toContain('-two\n+2\n');
    expect(await readFile(join(workspace.path, 'notes.txt'), 'utf8')).toBe('one\n2\n');
  });
});
