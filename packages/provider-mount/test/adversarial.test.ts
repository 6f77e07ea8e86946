import { linkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type ConfigInput, LibosError } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { describe, expect, it } from 'vitest';
import { createMountProvider, withReadOnlyMounts } from '../src/index.js';
import { mountedWorkspace } from './workspace.js';

describe('an agent trying to get out of a mount', () => {
  it('.. moves between mounts only as a workspace path, judged by the grants of where it lands, and never above the root', async () => {
    const config: ConfigInput = { grants: [{ path: 'web', tree: true, rights: ['read', 'write', 'delete'] }] };
    const { agent, api, fails, ok, web } = await mountedWorkspace({}, { config });
    await api.fixtures.writeFile('secret.txt', 'api only');
    await web.fixtures.writeFile('src/a.txt', 'a');
    await ok('set_working_directory', { path: 'web/src' });
    // Lexical: web/src/../../api/secret.txt is api/secret.txt, which no grant covers.
    expect(await fails('read_text_file', { path: '../../api/secret.txt' })).toMatchObject({ code: 'denied', details: { path: 'api/secret.txt' } });
    expect(await fails('read_text_file', { path: '../../../outside.txt' })).toMatchObject({ code: 'outside_workspace' });
    expect(await fails('read_text_file', { path: '../../../../../etc/passwd' })).toMatchObject({ code: 'outside_workspace' });
    expect(agent.cwd).toBe('web/src');
  });

  it('a link in one mount never reaches the other mount, whatever its target', async () => {
    const { fails, web, api } = await mountedWorkspace({ web: 'local', api: 'local' });
    await api.fixtures.writeFile('secret.txt', 'api only');
    const apiRoot = api.hostRoot;
    symlinkSync(apiRoot, join(web.hostRoot, 'to-api'));
    symlinkSync(join(apiRoot, 'secret.txt'), join(web.hostRoot, 'secret-link.txt'));
    symlinkSync('../../api', join(web.hostRoot, 'relative'));
    linkSync(join(apiRoot, 'secret.txt'), join(web.hostRoot, 'twin.txt'));
    const before = `${web.wholeFingerprint()} ${api.wholeFingerprint()}`;
    expect(await fails('read_text_file', { path: 'web/to-api/secret.txt' })).toMatchObject({
      code: 'symlink_refused',
      details: { link: 'web/to-api' },
    });
    expect(await fails('read_text_file', { path: 'web/secret-link.txt' })).toMatchObject({ code: 'symlink_refused' });
    expect(await fails('read_directory', { path: 'web/relative' })).toMatchObject({ code: 'symlink_refused' });
    expect(await fails('read_text_file', { path: 'web/twin.txt' })).toMatchObject({ code: 'hard_link_refused' });
    expect(await fails('copy_file', { from: 'web/twin.txt', to: 'api/copy.txt' })).toMatchObject({ code: 'hard_link_refused' });
    expect(await fails('write_text_file', { path: 'web/to-api/new.txt', content: 'x' })).toMatchObject({ code: 'symlink_refused' });
    expect(await fails('delete_directory', { path: 'web/to-api', recursive: true })).toMatchObject({ code: 'symlink_refused' });
    expect(`${web.wholeFingerprint()} ${api.wholeFingerprint()}`).toBe(before);
    for (const message of [JSON.stringify(await fails('read_text_file', { path: 'web/to-api/secret.txt' }))]) {
      expect(message).not.toContain(apiRoot);
      expect(message).not.toContain(web.hostRoot);
    }
  });

  it('refuses mount names that look like paths, hide characters, twin another, or alias .git', () => {
    const provider = () => createMemfsProvider();
    for (const name of [
      'a/b',
      '../x',
      'web/',
      '.',
      '..',
      '',
      '.git',
      '.GIT',
      'git~1',
      'web\u202e',
      'we\u200bb',
      'a\nb',
      'a\0b',
      ' web',
      'x'.repeat(256),
    ]) {
      expect(() => createMountProvider({ [name]: provider() }), JSON.stringify(name)).toThrow(
        expect.objectContaining({ code: 'invalid_arguments', details: { reason: 'invalid_mount_name' } }),
      );
    }
    expect(() => createMountProvider({ 'caf\u00e9': provider(), 'cafe\u0301': provider() })).toThrow(
      expect.objectContaining({ details: { reason: 'duplicate_mount_name' } }),
    );
    const shared = provider();
    expect(() => createMountProvider({ web: shared, api: shared })).toThrow(
      expect.objectContaining({ details: { reason: 'duplicate_mount_provider' } }),
    );
    expect(() => createMountProvider({})).toThrow(LibosError);
    // __proto__ is a name like any other: it is served, and no prototype is touched.
    const odd = createMountProvider(Object.fromEntries([['__proto__', provider()]]));
    expect(odd.mountNames).toEqual(['__proto__']);
  });

  it('a copy between mounts racing a delete of its source lands whole or not at all', async () => {
    const { agent, web, api } = await mountedWorkspace();
    const content = 'x'.repeat(100_000);
    for (let round = 0; round < 30; round++) {
      await web.fixtures.writeFile('a.txt', content);
      const [copied, deleted] = await Promise.all([
        agent.call('copy_file', { from: 'web/a.txt', to: `api/copies/${round}.txt` }),
        agent.call('delete_file', { path: 'web/a.txt' }),
      ]);
      expect(deleted.ok).toBe(true);
      const landed = await api.fixtures.readFile(`copies/${round}.txt`);
      if (copied.ok) expect(new TextDecoder().decode(landed!)).toBe(content);
      else {
        expect(['not_found', 'changed_during_operation']).toContain(copied.error.code);
        expect(landed).toBeNull();
      }
    }
  });

  it('a copy between mounts racing a recursive delete of its target directory never leaves a partial file', async () => {
    const { agent, web, api } = await mountedWorkspace({ web: 'local', api: 'local' });
    const content = 'y'.repeat(200_000);
    await web.fixtures.writeFile('a.txt', content);
    for (let round = 0; round < 20; round++) {
      await api.fixtures.writeFile('target/old.txt', 'old');
      const [copied] = await Promise.all([
        agent.call('copy_file', { from: 'web/a.txt', to: 'api/target/a.txt' }),
        agent.call('delete_directory', { path: 'api/target', recursive: true }),
      ]);
      const landed = await api.fixtures.readFile('target/a.txt');
      if (landed !== null) expect(new TextDecoder().decode(landed)).toBe(content);
      if (!copied.ok) expect(landed).toBeNull();
      await agent.call('delete_directory', { path: 'api/target', recursive: true, missing_ok: true });
    }
    expect(await web.fixtures.readFile('a.txt')).not.toBeNull();
  });
});

describe('a read-only mount', () => {
  it('refuses every write there as a grant denial saying the mount is read-only, asks no one, and reads stay open', async () => {
    const asked: string[] = [];
    const config = withReadOnlyMounts({ grants: [{ path: '.', tree: true, rights: ['read', 'write', 'delete'], mode: 'ask' }] }, ['api']);
    const { ok, fails, api, fingerprint } = await mountedWorkspace(
      {},
      {
        config,
        approver: async (request) => {
          asked.push(`${request.right} ${request.path}`);
          return 'approve';
        },
      },
    );
    await api.fixtures.writeFile('a.txt', 'a');
    await api.fixtures.makeDirectory('dir');
    const before = fingerprint();
    for (const [tool, args] of [
      ['write_text_file', { path: 'api/a.txt', content: 'b' }],
      ['write_text_file', { path: 'api/missing/new.txt', content: 'b' }],
      ['write_text_file', { path: 'web/../api/a.txt', content: 'b' }],
      ['append_text_file', { path: 'api/a.txt', content: 'b' }],
      ['edit_text_file', { path: 'api/a.txt', edits: [{ old_text: 'a', new_text: 'b' }] }],
      ['write_directory', { path: 'api/new' }],
      ['delete_file', { path: 'api/a.txt' }],
      ['delete_directory', { path: 'api/dir', recursive: true }],
      ['move_file', { from: 'api/a.txt', to: 'api/b.txt' }],
      ['copy_file', { from: 'api/a.txt', to: 'api/b.txt' }],
    ] as const) {
      const error = await fails(tool, args);
      expect(error, tool).toMatchObject({ code: 'denied', effect: 'none' });
      expect(error.message).toContain('the mount "api" is read-only');
    }
    // Only reads were ever asked about (the config asks for every right; copy_file asks its read first).
    expect(asked.filter((entry) => !entry.startsWith('read '))).toEqual([]);
    expect(fingerprint()).toBe(before);
    expect(await ok('read_text_file', { path: 'api/a.txt' })).toMatchObject({ content: 'a' });
    expect(await ok('copy_file', { from: 'api/a.txt', to: 'web/a.txt' })).toMatchObject({ bytes_copied: 1 });
    expect(asked.slice(-2)).toEqual(['read api/a.txt', 'write web/a.txt']);
  });

  it('keeps a config without grants as open as it was everywhere else', async () => {
    const { ok, fails } = await mountedWorkspace({}, { config: withReadOnlyMounts(undefined, ['api']) });
    expect(await ok('write_text_file', { path: 'web/a.txt', content: 'a' })).toMatchObject({ created: true });
    expect(await ok('delete_file', { path: 'web/a.txt' })).toMatchObject({ deleted: true });
    expect(await fails('write_text_file', { path: 'api/a.txt', content: 'a' })).toMatchObject({ code: 'denied' });
  });
});
