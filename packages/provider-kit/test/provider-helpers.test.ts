import { LibosError, type WorkspacePath } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { checkSignal, createCallGate, hostErrorCode } from '../src/index.js';

const p = (text: string) => text as WorkspacePath;

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
