import { LibosError, parseConfig, type AccessRequest, type ConfigInput, type Right, type WorkspacePath } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { createAuthority, type AuthorityOptions } from '../src/authority/create-authority.js';

function authorityWith(grants: NonNullable<ConfigInput['grants']>, extra: Omit<AuthorityOptions, 'config'> = {}) {
  return createAuthority({ config: parseConfig({ grants }), ...extra });
}

function request(path: string, right: Right = 'write'): AccessRequest {
  return { tool: 'write_text_file', right, target: 'file', path: path as WorkspacePath, argumentsSha256: 'a'.repeat(64) };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (LibosError.is(error)) return error.code;
    throw error;
  }
}

// One whole call as the tools make it: authorize, then spend right before the provider.
async function call(authority: ReturnType<typeof createAuthority>, path: string, right: Right = 'write') {
  return codeOf(authority.authorize(request(path, right)).then((permit) => permit.spend()));
}

describe('uses', () => {
  it('allow exactly N calls, then deny', async () => {
    const authority = authorityWith([{ path: 'notes.txt', rights: ['write'], uses: 2 }]);
    expect(await call(authority, 'notes.txt')).toBe('ok');
    expect(await call(authority, 'notes.txt')).toBe('ok');
    expect(await call(authority, 'notes.txt')).toBe('denied');
    const error = await authority.authorize(request('notes.txt')).catch((caught) => caught);
    expect(error.message).toBe('Writing "notes.txt" is not permitted.');
  });

  it('are spent by spend(), not by authorize() alone (an argument error or a denial spends nothing)', async () => {
    const authority = authorityWith([
      { path: 'notes.txt', rights: ['write'], uses: 1 },
      { path: 'notes.txt', rights: ['delete'], mode: 'deny' },
    ]);
    for (let index = 0; index < 5; index++) await authority.authorize(request('notes.txt'));
    expect(await call(authority, 'notes.txt', 'delete')).toBe('denied');
    expect(await call(authority, 'notes.txt', 'read')).toBe('denied');
    expect(await call(authority, 'notes.txt')).toBe('ok');
    expect(await call(authority, 'notes.txt')).toBe('denied');
  });

  it('are spent once per permit, however often spend() is called', async () => {
    const authority = authorityWith([{ path: 'notes.txt', rights: ['write'], uses: 2 }]);
    const permit = await authority.authorize(request('notes.txt'));
    permit.spend();
    permit.spend();
    expect(await call(authority, 'notes.txt')).toBe('ok');
  });

  it('are re-checked by spend(): a permit outrun by another call is denied', async () => {
    const authority = authorityWith([{ path: 'notes.txt', rights: ['write'], uses: 1 }]);
    const first = await authority.authorize(request('notes.txt'));
    const second = await authority.authorize(request('notes.txt'));
    second.spend();
    expect(() => first.spend()).toThrowError(expect.objectContaining({ code: 'denied' }));
  });

  it('let exactly one of 20 concurrent calls through with uses: 1', async () => {
    const authority = authorityWith([{ path: 'notes.txt', rights: ['write'], uses: 1 }]);
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const permit = await authority.authorize(request('notes.txt'));
        await new Promise((resolve) => setTimeout(resolve, index % 3));
        return codeOf(Promise.resolve().then(() => permit.spend()));
      }),
    );
    expect(results.filter((code) => code === 'ok')).toHaveLength(1);
    expect(results.filter((code) => code === 'denied')).toHaveLength(19);
  });

  it('let exactly one of 20 concurrent approved calls through with an ask grant of uses: 1', async () => {
    let asked = 0;
    const authority = authorityWith([{ path: 'src', tree: true, rights: ['write'], mode: 'ask', uses: 1 }], {
      approver: async () => {
        asked += 1;
        await new Promise((resolve) => setTimeout(resolve, asked % 4));
        return 'approve';
      },
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => call(authority, 'src/a.txt')));
    expect(results.filter((code) => code === 'ok')).toHaveLength(1);
    expect(results.filter((code) => code === 'denied')).toHaveLength(19);
    // Once spent, the approver is no longer bothered.
    const before = asked;
    expect(await call(authority, 'src/a.txt')).toBe('denied');
    expect(asked).toBe(before);
  });

  it('are shared by every path a tree grant covers', async () => {
    const authority = authorityWith([{ path: 'src', tree: true, rights: ['write'], uses: 2 }]);
    expect(await call(authority, 'src/a')).toBe('ok');
    expect(await call(authority, 'src/b/c')).toBe('ok');
    expect(await call(authority, 'src/a')).toBe('denied');
  });

  it('are not spent when an unlimited grant of the same mode also matches', async () => {
    const authority = authorityWith([
      { path: '.', tree: true, rights: ['write'] },
      { path: 'notes.txt', rights: ['write'], uses: 1 },
    ]);
    for (let index = 0; index < 3; index++) expect(await call(authority, 'notes.txt')).toBe('ok');
  });

  it('are spent on every limited deciding grant, so each counts the calls it allowed', async () => {
    const authority = authorityWith([
      { path: 'src', tree: true, rights: ['write'], uses: 3 },
      { path: 'src/a', rights: ['write'], uses: 1 },
    ]);
    expect(await call(authority, 'src/a')).toBe('ok'); // src 2 left, src/a 0 left
    expect(await call(authority, 'src/a')).toBe('ok'); // src/a is spent; src still allows it
    expect(await call(authority, 'src/b')).toBe('ok');
    expect(await call(authority, 'src/b')).toBe('denied');
    expect(await call(authority, 'src/a')).toBe('denied');
  });

  it('never let an exhausted ask grant fall back to an allow grant', async () => {
    const authority = authorityWith(
      [
        { path: '.', tree: true, rights: ['write'] },
        { path: 'src', tree: true, rights: ['write'], mode: 'ask', uses: 1 },
      ],
      { approver: async () => 'approve' },
    );
    expect(await call(authority, 'src/a')).toBe('ok');
    expect(await call(authority, 'src/a')).toBe('denied');
    expect(await call(authority, 'other')).toBe('ok');
  });

  it('are kept per authority, so two runtimes do not share them', async () => {
    const grants = [{ path: 'notes.txt', rights: ['write' as const], uses: 1 }];
    const first = authorityWith(grants);
    const second = authorityWith(grants);
    expect(await call(first, 'notes.txt')).toBe('ok');
    expect(await call(second, 'notes.txt')).toBe('ok');
    expect(await call(first, 'notes.txt')).toBe('denied');
  });
});
