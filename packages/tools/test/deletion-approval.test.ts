import type { ApprovalRequest } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { LOSS_MAX_ENTRIES } from '../src/tools/deletion-loss.js';

// A person asked to allow a delete is told what would be lost, in numbers: files, bytes, directories.
async function asked(setUp: (fixtures: ReturnType<typeof createMemfsTestbed>['fixtures']) => Promise<void>, tool: string, args: object) {
  const { provider, fixtures } = createMemfsTestbed();
  await setUp(fixtures);
  const seen: ApprovalRequest[] = [];
  const runtime = await createRuntime({
    provider,
    config: { grants: [{ path: '.', tree: true, rights: ['read', 'write', 'delete'], mode: 'ask' }] },
    approver: async (request) => {
      seen.push(request);
      return 'reject';
    },
  });
  const outcome = await runtime.spawn().call(tool, args);
  await runtime.close();
  return { outcome, message: seen[0]?.message ?? '', fixtures };
}

describe('a delete asks with what it would remove', () => {
  it('a file: its size', async () => {
    const { outcome, message, fixtures } = await asked((f) => f.writeFile('notes.txt', 'fourteen bytes'), 'delete_file', { path: 'notes.txt' });
    expect(message).toBe('Allow delete_file to delete "notes.txt"? It would delete 1 file (14 bytes).');
    expect(outcome).toMatchObject({ ok: false, error: { code: 'approval_rejected' } });
    expect(await fixtures.kindOf('notes.txt')).toBe('file');
  });

  it('a tree: every file, its bytes and its directories, the deleted one included', async () => {
    const { message } = await asked(
      async (f) => {
        await f.writeFile('src/a.ts', 'abc');
        await f.writeFile('src/deep/b.ts', 'de');
        await f.writeFile('src/deep/er/c.ts', '');
      },
      'delete_directory',
      { path: 'src', recursive: true },
    );
    expect(message).toBe('Allow delete_directory to delete "src"? It would delete 3 files (5 bytes) in 3 directories.');
  });

  it('a huge tree: counting stops at its bound and says "at least"', async () => {
    const { message } = await asked(
      async (f) => {
        for (let index = 0; index < LOSS_MAX_ENTRIES + 50; index += 1) await f.writeFile(`big/f${index}`, 'x');
      },
      'delete_directory',
      { path: 'big', recursive: true },
    );
    const files = LOSS_MAX_ENTRIES - 1;
    expect(message).toBe(
      `Allow delete_directory to delete "big"? It would delete at least ${files} files (at least ${files} bytes) in at least 1 directory: counting stopped there.`,
    );
  });

  it('nothing there: no count, and the delete fails as it would have', async () => {
    const { message } = await asked(async () => {}, 'delete_file', { path: 'gone.txt' });
    expect(message).toBe('Allow delete_file to delete "gone.txt"?');
  });
});
