import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';

const CAFE_NFD = 'cafe\u0301.txt';
const CAFE_NFC = 'caf\u00E9.txt';
const RESUME_NFD = 're\u0301sume\u0301';
const RESUME_NFC = 'r\u00E9sum\u00E9';

const path = (name: string) => resolveWorkspacePath(ROOT_PATH, name);
const bytes = (text: string) => new TextEncoder().encode(text);

// The lookup lives in the tools, above the provider interface: over the overlay it finds names in
// the lower and in the overlay's own changes alike, and the lower is never touched.
describe('names equal after Unicode normalization, over the overlay', () => {
  it('finds an NFD entry by its NFC name, refuses a twin, and leaves the lower as it was', async () => {
    const lower = createMemfsProvider();
    await lower.writeFile(path(CAFE_NFD), bytes('bonjour\n'), { overwrite: true });
    await lower.writeFile(path(`${RESUME_NFD}/notes.txt`), bytes('note\n'), { overwrite: true });
    const overlay = await openOverlay({ lower, state: ':memory:' });
    const runtime = await createRuntime({ provider: overlay.provider });
    const agent = runtime.spawn();
    try {
      expect(await agent.call('read_text_file', { path: CAFE_NFC })).toMatchObject({ ok: true, result: { path: CAFE_NFD, content: 'bonjour\n' } });
      expect(await agent.call('edit_text_file', { path: CAFE_NFC, edits: [{ old_text: 'bonjour', new_text: 'salut' }] })).toMatchObject({
        ok: true,
        result: { path: CAFE_NFD },
      });
      expect(await agent.call('write_text_file', { path: CAFE_NFC, content: 'twin' })).toMatchObject({
        ok: false,
        error: { code: 'already_exists', effect: 'none', details: { existing: CAFE_NFD } },
      });
      expect(await agent.call('write_text_file', { path: `${RESUME_NFC}/new.txt`, content: 'n' })).toMatchObject({
        ok: true,
        result: { path: `${RESUME_NFD}/new.txt` },
      });
      // A name that exists only in the overlay's changes is found the same way.
      expect(await agent.call('move_file', { from: `${RESUME_NFC}/new.txt`, to: 'moved.txt' })).toMatchObject({
        ok: true,
        result: { from: `${RESUME_NFD}/new.txt`, to: 'moved.txt' },
      });
      expect(await agent.call('read_text_file', { path: CAFE_NFC })).toMatchObject({ ok: true, result: { content: 'salut\n' } });
      const changed = (await overlay.changes()).changes.map((change) => change.path).sort();
      expect(changed).toEqual([CAFE_NFD, 'moved.txt'].sort());
      expect(new TextDecoder().decode((await lower.readFile(path(CAFE_NFD), { maxBytes: 100 })).bytes)).toBe('bonjour\n');
      expect((await lower.listDirectory(ROOT_PATH, { limit: 100 })).entries.map((entry) => entry.name).sort()).toEqual([CAFE_NFD, RESUME_NFD].sort());
    } finally {
      await runtime.close();
      await overlay.close();
    }
  });
});
