import { describe, expect, it } from 'vitest';
import { createCleanupStack } from '../src/workspace/cleanup-stack.js';

describe('createCleanupStack', () => {
  it('runs every release newest first, once', async () => {
    const stack = createCleanupStack();
    const ran: string[] = [];
    stack.defer(() => ran.push('provider'));
    stack.defer(async () => ran.push('audit log'));
    stack.defer(() => ran.push('runtime'));
    await stack.disposeAsync();
    await stack.disposeAsync();
    expect(ran).toEqual(['runtime', 'audit log', 'provider']);
    expect(() => stack.defer(() => undefined)).toThrow('already been released');
  });

  it('keeps releasing past a failure and throws it; several failures come as one AggregateError', async () => {
    const one = createCleanupStack();
    const ran: string[] = [];
    one.defer(() => ran.push('provider'));
    one.defer(() => Promise.reject(new Error('audit log: disk full')));
    await expect(one.disposeAsync()).rejects.toThrow('audit log: disk full');
    expect(ran).toEqual(['provider']);

    const two = createCleanupStack();
    two.defer(() => {
      throw new Error('pool: connection lost');
    });
    two.defer(() => Promise.reject(new Error('runtime: stuck')));
    const failure = await two.disposeAsync().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AggregateError);
    expect((failure as AggregateError).message).toBe('runtime: stuck');
    expect((failure as AggregateError).errors.map((error: Error) => error.message)).toEqual(['runtime: stuck', 'pool: connection lost']);
  });
});
