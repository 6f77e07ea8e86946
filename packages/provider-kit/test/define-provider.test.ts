import { LibosError, ROOT_PATH, providerErrors, type WorkspacePath } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { defineProvider, wrapProvider } from '../src/index.js';

const p = (text: string) => text as WorkspacePath;
const capabilities = { symlinks: false, hardLinks: false, specialFiles: false, atomicReplace: true, exclusiveCreate: true, durableWrites: false };
const missing = { kind: 'missing' as const, sizeBytes: null, modifiedAt: null };

/** A provider whose every operation records that it ran; `enter` and the operations are the test's. */
function recording(overrides: { enter?: () => unknown; fail?: unknown; mapError?: (error: unknown, path: WorkspacePath) => LibosError } = {}) {
  const ran: string[] = [];
  const act = (name: string) => {
    ran.push(name);
    if (overrides.fail !== undefined) throw overrides.fail;
  };
  const provider = defineProvider<unknown>({
    name: 'recording',
    capabilities,
    enter: overrides.enter ?? (() => undefined),
    ...(overrides.mapError === undefined ? {} : { mapError: overrides.mapError }),
    operations: {
      stat: () => (act('stat'), missing),
      listDirectory: () => (act('listDirectory'), { entries: [], truncated: false }),
      readFile: () => (act('readFile'), { bytes: new Uint8Array(), truncated: false }),
      writeFile: async () => (act('writeFile'), { created: true }),
      makeDirectory: () => (act('makeDirectory'), { created: true }),
      deleteFile: () => (act('deleteFile'), { deleted: true }),
      deleteDirectory: () => (act('deleteDirectory'), { deleted: true }),
      rename: () => (act('rename'), { replaced: false }),
    },
  });
  return { provider, ran };
}

describe('defineProvider', () => {
  it('has exactly the methods of its table, and wrapProvider keeps them all', () => {
    const { provider } = recording();
    const methods = (object: object) => Object.keys(object).filter((key) => typeof (object as Record<string, unknown>)[key] === 'function');
    expect(methods(provider).sort()).toEqual(
      ['close', 'deleteDirectory', 'deleteFile', 'listDirectory', 'makeDirectory', 'readFile', 'rename', 'stat', 'writeFile'].sort(),
    );
    expect(provider.appendFile).toBeUndefined();
    expect(methods(wrapProvider(provider, {})).sort()).toEqual(methods(provider).sort());
  });

  it('refuses an aborted signal before enter or the operation runs, effect none', async () => {
    let entered = 0;
    const { provider, ran } = recording({ enter: () => void entered++ });
    const controller = new AbortController();
    controller.abort();
    const error = await provider
      .writeFile(p('a'), new Uint8Array([1]), { overwrite: true, signal: controller.signal })
      .catch((thrown: unknown) => thrown);
    expect(LibosError.is(error, 'provider_failure') && error.details).toEqual({ path: 'a', reason: 'cancelled' });
    expect((error as LibosError).effect).toBe('none');
    expect([entered, ran]).toEqual([0, []]);
  });

  it('checks the signal again after an enter that waited, before the operation', async () => {
    const controller = new AbortController();
    const { provider, ran } = recording({ enter: async () => controller.abort() });
    const error = await provider.rename!(p('a'), p('b'), { overwrite: false, signal: controller.signal }).catch((thrown: unknown) => thrown);
    expect(LibosError.is(error, 'provider_failure') && error.details).toEqual({ path: 'a', reason: 'cancelled' });
    expect(ran).toEqual([]);
  });

  it('lets enter refuse a call, and passes its LibosError through unchanged', async () => {
    const gone = providerErrors.rootGone(p('x'));
    const { provider, ran } = recording({
      enter: () => {
        throw gone;
      },
    });
    await expect(provider.stat(p('x'))).rejects.toBe(gone);
    expect(ran).toEqual([]);
  });

  it('maps a host error to provider_failure with its code and effect unknown, never its message', async () => {
    const { provider } = recording({ fail: Object.assign(new Error('/secret/host/path'), { code: 'ENOSPC' }) });
    const error = await provider.makeDirectory(p('d'), { parents: false, existOk: false }).catch((thrown: unknown) => thrown);
    expect(LibosError.is(error, 'provider_failure')).toBe(true);
    expect((error as LibosError).effect).toBe('unknown');
    expect((error as LibosError).details).toEqual({ path: 'd', host_code: 'ENOSPC' });
    expect((error as LibosError).message).not.toContain('/secret');
  });

  it("uses the author's mapError for what is not a LibosError", async () => {
    const { provider } = recording({ fail: 'raw', mapError: (_error, path) => providerErrors.notFound(path) });
    await expect(provider.readFile(p('f'), { maxBytes: 1 })).rejects.toSatisfy((error) => LibosError.is(error, 'not_found'));
  });

  it('after close, refuses every call without running it, and releases once after the calls in flight', async () => {
    let finish!: () => void;
    const events: string[] = [];
    const provider = defineProvider({
      name: 'slow',
      capabilities,
      release: () => void events.push('released'),
      operations: {
        stat: () => new Promise<typeof missing>((resolve) => (finish = () => resolve(missing))).finally(() => events.push('stat done')),
        listDirectory: () => ({ entries: [], truncated: false }),
        readFile: () => ({ bytes: new Uint8Array(), truncated: false }),
        writeFile: () => (events.push('write ran'), { created: true }),
        makeDirectory: () => ({ created: true }),
        deleteFile: () => ({ deleted: true }),
        deleteDirectory: () => ({ deleted: true }),
      },
    });
    const inFlight = provider.stat(ROOT_PATH);
    await Promise.resolve();
    const closing = Promise.all([provider.close(), provider.close()]);
    await Promise.resolve();
    expect(events).toEqual([]);
    finish();
    await Promise.all([inFlight, closing]);
    expect(events).toEqual(['stat done', 'released']);
    const error = await provider.writeFile(p('a'), new Uint8Array(), { overwrite: true }).catch((thrown: unknown) => thrown);
    expect(LibosError.is(error, 'provider_failure') && error.effect).toBe('none');
    expect(events).toEqual(['stat done', 'released']);
  });
});
