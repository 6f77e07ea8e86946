import { describe, expect, it } from 'vitest';
import { LibosError, PROVIDER_ERROR_DETAILS, checkSignal, createCallGate, hostErrorCode, providerErrors, type WorkspacePath } from '../src/index.js';

const p = (text: string) => text as WorkspacePath;

const every: ReadonlyArray<[string, LibosError]> = [
  ['notFound', providerErrors.notFound(p('a/b'))],
  ['notFound below', providerErrors.notFound(p('a/b'), p('a'))],
  ['rootGone', providerErrors.rootGone(p('a'))],
  ['rootReplaced', providerErrors.rootReplaced(p('a'))],
  ['alreadyExists', providerErrors.alreadyExists(p('a'))],
  ['notAFile', providerErrors.notAFile(p('a'), 'directory')],
  ['notADirectory', providerErrors.notADirectory(p('a/b'), p('a'))],
  ['directoryNotEmpty', providerErrors.directoryNotEmpty(p('a'))],
  ['symlinkRefused', providerErrors.symlinkRefused(p('a/b'), p('a'))],
  ['hardLinkRefused', providerErrors.hardLinkRefused(p('a'), 2)],
  ['contentConflict', providerErrors.contentConflict(p('a'), 'f'.repeat(64), '0'.repeat(64))],
  ['contentConflict missing', providerErrors.contentConflict(p('a'), 'missing')],
  ['protectedPath', providerErrors.protectedPath(p('a'), p('a/.git'))],
  ['rootRefused', providerErrors.rootRefused(p('.'))],
  ['changedDuringOperation', providerErrors.changedDuringOperation(p('a'))],
  ['failure', providerErrors.failure(p('a'), 'ENOSPC')],
  ['closed', providerErrors.closed(p('a'), 'example')],
  ['cancelled', providerErrors.cancelled(p('a'))],
  ['tooDeep', providerErrors.tooDeep(p('a'), 2048)],
  ['quotaExceeded', providerErrors.quotaExceeded(p('a'), 10, 5, 12)],
];

describe('providerErrors', () => {
  it.each(every)('%s has exactly the details keys its code allows, all snake_case', (_name, error) => {
    const shape = PROVIDER_ERROR_DETAILS[error.code];
    expect(shape, error.code).toBeDefined();
    const keys = Object.keys(error.details ?? {});
    for (const key of shape!.required) expect(keys).toContain(key);
    for (const key of keys) {
      expect([...shape!.required, ...shape!.optional]).toContain(key);
      expect(key).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
    }
    expect(error.message).toMatch(/^[^\n]+[.]$/);
  });

  it('defaults to effect none, provider_failure from the host to unknown, and takes an explicit effect', () => {
    expect(providerErrors.notFound(p('a')).effect).toBe('none');
    expect(providerErrors.failure(p('a'), null).effect).toBe('unknown');
    expect(providerErrors.failure(p('a'), 'EIO', { effect: 'none' }).effect).toBe('none');
    expect(providerErrors.closed(p('a'), 'x').effect).toBe('none');
    expect(providerErrors.cancelled(p('a'), { effect: 'unknown' }).effect).toBe('unknown');
    expect(providerErrors.notADirectory(p('a'), undefined, { effect: 'unknown' }).effect).toBe('unknown');
  });

  it('words host conditions once and keeps the host code as a value', () => {
    const error = providerErrors.failure(p('x'), 'EROFS');
    expect(error.message).toBe("The workspace is on a read-only filesystem ('x').");
    expect(error.details).toEqual({ path: 'x', host_code: 'EROFS' });
    expect(providerErrors.failure(p('x'), null).details).toEqual({ path: 'x', host_code: null });
  });
});

describe('hostErrorCode', () => {
  it('reads a string code and nothing else', () => {
    expect(hostErrorCode(Object.assign(new Error('/host/path'), { code: 'ENOENT' }))).toBe('ENOENT');
    expect(hostErrorCode({ code: 5 })).toBeUndefined();
    expect(hostErrorCode('ENOENT')).toBeUndefined();
    expect(hostErrorCode(null)).toBeUndefined();
  });
});

describe('createCallGate', () => {
  it('fails calls after close with provider_failure, effect none, and closes once', async () => {
    const gate = createCallGate('example');
    expect(await gate.run(p('a'), () => 1)).toBe(1);
    let released = 0;
    await Promise.all([gate.close(() => void released++), gate.close(() => void released++)]);
    expect(released).toBe(1);
    const error = await gate.run(p('a'), () => 1).catch((thrown: unknown) => thrown);
    expect(LibosError.is(error, 'provider_failure') && error.effect).toBe('none');
    expect(() => gate.enter(p('a'))).toThrow(/closed/);
  });

  it('waits for calls in flight before releasing', async () => {
    const gate = createCallGate('example');
    let finish!: () => void;
    const events: string[] = [];
    const call = gate.run(p('a'), () => new Promise<void>((resolve) => (finish = resolve)).then(() => void events.push('call done')));
    const closing = gate.close(() => void events.push('released'));
    await Promise.resolve();
    expect(events).toEqual([]);
    finish();
    await Promise.all([call, closing]);
    expect(events).toEqual(['call done', 'released']);
  });
});

describe('checkSignal', () => {
  it('passes without a signal or before abort, and throws the cancelled failure after', () => {
    const controller = new AbortController();
    checkSignal(undefined, p('a'));
    checkSignal(controller.signal, p('a'));
    controller.abort();
    let thrown: unknown;
    try {
      checkSignal(controller.signal, p('a'), 'unknown');
    } catch (error) {
      thrown = error;
    }
    expect(LibosError.is(thrown, 'provider_failure')).toBe(true);
    expect((thrown as LibosError).effect).toBe('unknown');
    expect((thrown as LibosError).details).toEqual({ path: 'a', reason: 'cancelled' });
  });
});
