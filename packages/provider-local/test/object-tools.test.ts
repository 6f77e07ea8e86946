import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENCODING_NAMES, createRuntime } from '@libos/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { OUTSIDE_CONTENT, createLocalTestbed, fingerprintTree } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

// Text every listed encoding can hold (ASCII), plus a sample per family that exercises its bytes.
const SAMPLES: Record<string, string> = {
  ascii: 'plain ascii\n',
  'latin-1': 'café ÿ\n',
  cp1252: 'café € “quotes”\n',
  'koi8-r': 'привет\n',
  shift_jis: '日本語のテキスト\n',
  'euc-jp': '日本語のテキスト\n',
  gbk: '中文文本\n',
  gb18030: '中文文本 😀\n',
  big5: '繁體中文\n',
  'euc-kr': '한국어 텍스트\n',
};

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

async function localRuntime(restore?: string) {
  const { sandbox, provider } = createLocalTestbed();
  sandboxes.push(sandbox);
  const runtime = await createRuntime({
    provider,
    config: { namespaces: [{ name: 'shared', rights: ['read', 'write'] }] },
    ...(restore === undefined ? {} : { restore }),
  });
  return { sandbox, runtime, process: runtime.spawn() };
}

describe('Object transfer tools on real disk', () => {
  it.each(ENCODING_NAMES)('%s: file -> Object -> file is byte-identical', async (encoding) => {
    const { sandbox, runtime, process } = await localRuntime();
    const text = SAMPLES[encoding] ?? 'Unicode text: é 日本 😀\n';
    const written = await process.call('write_text_file', { path: 'in/source.txt', content: text, encoding });
    expect(written.ok).toBe(true);
    const created = await process.call('create_object_from_file', { name: 'copy', path: 'in/source.txt', encoding });
    expect(created).toMatchObject({ ok: true, result: { name: 'copy', source_path: 'in/source.txt', truncated: false } });
    const exported = await process.call('write_object_to_file', { name: 'copy', path: 'out/copy.txt', encoding });
    expect(exported).toMatchObject({ ok: true, result: { path: 'out/copy.txt', created: true } });
    expect(readFileSync(join(sandbox.root, 'out/copy.txt'))).toEqual(readFileSync(join(sandbox.root, 'in/source.txt')));
    await runtime.close();
  });

  it('refuses to import through a symlink or to export onto one, and the outside stays as it was', async () => {
    const { sandbox, runtime, process } = await localRuntime();
    symlinkSync(join(sandbox.outside, 'secret.txt'), join(sandbox.root, 'leak.txt'));
    symlinkSync(join(sandbox.outside, 'directory'), join(sandbox.root, 'dir'));
    writeFileSync(join(sandbox.root, 'note.txt'), 'note');
    const before = fingerprintTree(sandbox.outside);
    const imported = await process.call('create_object_from_file', { name: 'leak', path: 'leak.txt' });
    expect(imported).toMatchObject({ ok: false, error: { code: 'symlink_refused', effect: 'none' } });
    expect(await process.call('create_object_from_file', { name: 'note', path: 'note.txt' })).toMatchObject({ ok: true });
    for (const path of ['leak.txt', 'dir/secret.txt', 'dir/new.txt']) {
      const outcome = await process.call('write_object_to_file', { name: 'note', path });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'symlink_refused' } });
    }
    expect(JSON.stringify(imported)).not.toContain(OUTSIDE_CONTENT);
    expect(fingerprintTree(sandbox.outside)).toBe(before);
    await runtime.close();
  });

  it('a checkpoint restores Objects into a new runtime, never workspace files', async () => {
    const first = await localRuntime();
    await first.process.call('write_text_file', { path: 'plan.md', content: '# plan' });
    const created = await first.process.call('create_object_from_file', { name: 'plan', path: 'plan.md', namespace: 'shared' });
    expect(created.ok).toBe(true);
    const checkpoint = join(first.sandbox.base, 'objects.sqlite');
    await first.runtime.checkpoint(checkpoint, { namespaces: ['shared'] });
    await first.runtime.close();

    const second = await localRuntime(checkpoint);
    expect(await second.process.call('read_text_file', { path: 'plan.md' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const exported = await second.process.call('write_object_to_file', { name: 'plan', path: 'plan.md', namespace: 'shared' });
    expect(exported).toMatchObject({ ok: true, result: { oid: created.ok ? created.result.oid : '', created: true } });
    expect(readFileSync(join(second.sandbox.root, 'plan.md'), 'utf8')).toBe('# plan');
    await second.runtime.close();
  });
});
