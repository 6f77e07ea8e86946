import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryApprovalStateStore } from '../src/approvals/approval-state-store.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('MemoryApprovalStateStore', () => {
  it('takes each state once, however many others were used meanwhile', async () => {
    const store = new MemoryApprovalStateStore();
    const expiresAt = Date.now() + 600_000;
    for (let index = 0; index < 5_000; index += 1) expect(await store.consume(`s${index}`, expiresAt)).toBe(true);
    expect(await store.consume('s0', expiresAt)).toBe(false);
    expect(await store.consume('s4999', expiresAt)).toBe(false);
  });

  it('still refuses a used state until it expires, and forgets it after', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const store = new MemoryApprovalStateStore();
    expect(await store.consume('a', 1_000_000 + 600_000)).toBe(true);
    vi.setSystemTime(1_000_000 + 599_000);
    expect(await store.consume('a', 1_000_000 + 600_000)).toBe(false);
    // Past its expiry the state no longer verifies, so the store may hold it no longer.
    vi.setSystemTime(1_000_000 + 601_000);
    expect(await store.consume('b', 1_000_000 + 1_201_000)).toBe(true);
    expect(await store.consume('a', 1_000_000 + 600_000)).toBe(true);
  });
});
