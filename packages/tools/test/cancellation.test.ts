import type { FileSystemProviderV1, ProviderCallOptions, WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { walkOnly } from './support/walk-only.js';

type Method = 'stat' | 'listDirectory' | 'readFile' | 'writeFile' | 'makeDirectory' | 'deleteFile' | 'deleteDirectory' | 'rename' | 'searchTree';

/**
 * A memfs provider whose methods record the signal they were given; `hold` makes the named method
 * wait, like a slow backend, until that signal aborts, and `entered` resolves once it has begun.
 */
function slowProvider(hold?: Method) {
  const { provider, fixtures } = createMemfsTestbed();
  const seen = new Map<Method, AbortSignal | undefined>();
  let enter!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const wrap =
    <A extends unknown[]>(method: Method, options: (args: A) => ProviderCallOptions | undefined, inner: (...args: A) => Promise<unknown>) =>
    async (...args: A): Promise<unknown> => {
      const signal = options(args)?.signal;
      seen.set(method, signal);
      if (method === hold) {
        enter();
        // Settles only through the signal: without it reaching here the call never ends.
        await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
        checkSignal(signal, args[0] as WorkspacePath);
      }
      return inner(...args);
    };
  const wrapped = {
    ...provider,
    stat: wrap('stat', (args: [WorkspacePath, ProviderCallOptions?]) => args[1], provider.stat),
    listDirectory: wrap('listDirectory', (args: Parameters<typeof provider.listDirectory>) => args[1], provider.listDirectory),
    readFile: wrap('readFile', (args: Parameters<typeof provider.readFile>) => args[1], provider.readFile),
    writeFile: wrap('writeFile', (args: Parameters<typeof provider.writeFile>) => args[2], provider.writeFile),
    makeDirectory: wrap('makeDirectory', (args: Parameters<typeof provider.makeDirectory>) => args[1], provider.makeDirectory),
    deleteFile: wrap('deleteFile', (args: Parameters<typeof provider.deleteFile>) => args[1], provider.deleteFile),
    deleteDirectory: wrap('deleteDirectory', (args: Parameters<typeof provider.deleteDirectory>) => args[1], provider.deleteDirectory),
    rename: wrap('rename', (args: Parameters<NonNullable<typeof provider.rename>>) => args[2], provider.rename!),
    searchTree: wrap('searchTree', (args: Parameters<NonNullable<typeof provider.searchTree>>) => args[1], provider.searchTree!),
  } as FileSystemProviderV1;
  return { provider: wrapped, fixtures, seen, entered };
}

describe('cancellation', () => {
  it('hands the call signal to the provider in every tool', async () => {
    const { provider, fixtures, seen } = slowProvider();
    await fixtures.writeFile('f.txt', 'x');
    await fixtures.makeDirectory('d');
    const runtime = await createRuntime({ provider });
    const process = runtime.spawn();
    const { signal } = new AbortController();
    const calls: Array<[Method, string, Record<string, unknown>]> = [
      ['listDirectory', 'read_directory', { path: '.' }],
      ['readFile', 'read_text_file', { path: 'f.txt' }],
      ['writeFile', 'write_text_file', { path: 'new.txt', content: 'y' }],
      ['makeDirectory', 'write_directory', { path: 'e' }],
      ['deleteFile', 'delete_file', { path: 'new.txt' }],
      ['deleteDirectory', 'delete_directory', { path: 'e' }],
      ['rename', 'move_file', { from: 'f.txt', to: 'd/g.txt' }],
      ['writeFile', 'edit_text_file', { path: 'd/g.txt', edits: [{ old_text: 'x', new_text: 'z' }] }],
      ['searchTree', 'search_files', { path: '.', query: 'z' }],
      ['readFile', 'move_file', { from: 'd/g.txt', to: 'd/g.txt' }],
      ['stat', 'set_working_directory', { path: 'd' }],
    ];
    for (const [method, tool, args] of calls) {
      seen.clear();
      const outcome = await process.call(tool as never, args as never, { signal });
      expect(outcome.ok, `${tool}: ${JSON.stringify(outcome)}`).toBe(true);
      // A search hands over its walk's own signal, which its deadline aborts as well as the caller's.
      if (tool === 'search_files') expect(seen.get(method), `${tool} → ${method}`).toBeInstanceOf(AbortSignal);
      else expect(seen.get(method), `${tool} → ${method}`).toBe(signal);
    }
    // The walk of a provider without `searchTree` hands its signal to every listing and read.
    const walker = (await createRuntime({ provider: walkOnly(provider) })).spawn();
    seen.clear();
    expect((await walker.call('search_files', { path: '.', query: 'z' }, { signal })).ok).toBe(true);
    expect(seen.get('listDirectory')).toBeInstanceOf(AbortSignal);
    expect(seen.get('readFile')).toBeInstanceOf(AbortSignal);
    await fixtures.writeFile('f.txt', 'x');
    seen.delete('readFile');
    const imported = await process.call('create_object_from_file', { name: 'o', path: '../f.txt' }, { signal });
    expect(imported.ok).toBe(true);
    expect(seen.get('readFile')).toBe(signal);
  });

  it('stops a slow provider call once the call is cancelled, and reports it changed nothing', async () => {
    const { provider, fixtures, entered } = slowProvider('readFile');
    await fixtures.writeFile('f.txt', 'x');
    const runtime = await createRuntime({ provider });
    const controller = new AbortController();
    const pending = runtime.spawn().call('read_text_file', { path: 'f.txt' }, { signal: controller.signal });
    await entered;
    controller.abort();
    const outcome = await pending;
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'provider_failure', effect: 'none', details: { path: 'f.txt', reason: 'cancelled' } },
    });
  });

  it('stops a search waiting on a slow provider once the call is cancelled', async () => {
    const { provider, fixtures, entered } = slowProvider('readFile');
    await fixtures.writeFile('d/f.txt', 'x');
    const runtime = await createRuntime({ provider });
    const controller = new AbortController();
    const pending = runtime.spawn().call('search_files', { path: 'd', query: 'x' }, { signal: controller.signal });
    await entered;
    controller.abort();
    expect(await pending).toMatchObject({
      ok: false,
      error: { code: 'provider_failure', effect: 'none', details: { path: 'd', reason: 'cancelled' } },
    });
  });

  it('stops a slow move before it lands: the file stays where it was', async () => {
    const { provider, fixtures, entered } = slowProvider('rename');
    await fixtures.writeFile('from.txt', 'kept');
    const runtime = await createRuntime({ provider });
    const controller = new AbortController();
    const pending = runtime.spawn().call('move_file', { from: 'from.txt', to: 'to.txt' }, { signal: controller.signal });
    await entered;
    controller.abort();
    expect(await pending).toMatchObject({
      ok: false,
      error: { code: 'provider_failure', effect: 'none', details: { path: 'from.txt', reason: 'cancelled' } },
    });
    expect(await fixtures.kindOf('to.txt')).toBe('missing');
    expect(await fixtures.kindOf('from.txt')).toBe('file');
  });

  it('stops a slow write before it lands', async () => {
    const { provider, fixtures, entered } = slowProvider('writeFile');
    const runtime = await createRuntime({ provider });
    const controller = new AbortController();
    const pending = runtime.spawn().call('write_text_file', { path: 'w.txt', content: 'never' }, { signal: controller.signal });
    await entered;
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'provider_failure', effect: 'none' } });
    expect(await fixtures.kindOf('w.txt')).toBe('missing');
  });

  it('stops waiting for an approver that never answers once the call is cancelled, and probes nothing', async () => {
    const { provider, seen } = slowProvider();
    let asked!: () => void;
    const approverCalled = new Promise<void>((resolve) => (asked = resolve));
    const runtime = await createRuntime({
      provider,
      config: { grants: [{ path: '.', tree: true, rights: ['read', 'write', 'delete'], mode: 'ask' }] },
      approver: () => {
        asked();
        return new Promise(() => {});
      },
    });
    const controller = new AbortController();
    const pending = runtime.spawn().call('write_text_file', { path: 'a.txt', content: 'x' }, { signal: controller.signal });
    await approverCalled;
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'approval_required', effect: 'none' } });
    expect(seen.size).toBe(0);
  });
});
