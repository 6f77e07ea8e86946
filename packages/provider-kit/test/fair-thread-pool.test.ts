import { afterEach, describe, expect, it, vi } from 'vitest';
import { FairThreadPool, type FairPoolOptions } from '../src/index.js';

// A thread that answers `value` (with its workerData's tag), exits when asked, or spins until ended.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', (message) => {
  if (message.exit) process.exit(3);
  if (message.spin) for (;;) {}
  setTimeout(() => parentPort.postMessage(workerData.tag + ':' + message.value), message.wait ?? 0);
});
`;

type Message = { readonly value?: string; readonly wait?: number; readonly exit?: boolean; readonly spin?: boolean };

const pools: FairThreadPool<string, Message, string>[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.resize(0);
});

function makePool(options: Partial<FairPoolOptions> = {}): FairThreadPool<string, Message, string> {
  const pool = new FairThreadPool<string, Message, string>({
    worker: () => ({ file: SOURCE, options: { eval: true, workerData: { tag: 't' }, stdout: false, stderr: false } }),
    ...options,
  });
  pools.push(pool);
  return pool;
}

function ask(pool: FairThreadPool<string, Message, string>, owner: string, message: Message): Promise<string> {
  return new Promise((resolve, reject) => {
    pool.submit(owner, message, { answer: resolve, crash: reject });
  });
}

describe('FairThreadPool', () => {
  it('serves the owners in turn: a backlog of one owner takes one turn in each round', async () => {
    const pool = makePool({ size: 1 });
    const order: string[] = [];
    const note = (answer: Promise<string>) => answer.then((value) => order.push(value));
    const all = [
      note(ask(pool, 'a', { value: 'a1', wait: 20 })),
      note(ask(pool, 'a', { value: 'a2' })),
      note(ask(pool, 'a', { value: 'a3' })),
      note(ask(pool, 'a', { value: 'a4' })),
      note(ask(pool, 'b', { value: 'b1' })),
      note(ask(pool, 'c', { value: 'c1' })),
    ];
    expect(pool.stats()).toEqual({ maxThreads: 1, threads: 1, busy: 1, queued: 5 });
    await Promise.all(all);
    expect(order).toEqual(['t:a1', 't:a2', 't:b1', 't:c1', 't:a3', 't:a4']);
  });

  it('never runs more threads than its bound, and a lowered bound ends threads as they go idle', async () => {
    const pool = makePool({ size: 3 });
    const answers = Array.from({ length: 7 }, (_, index) => ask(pool, `o${index % 2}`, { value: String(index), wait: 30 }));
    expect(pool.stats()).toMatchObject({ threads: 3, busy: 3, queued: 4 });
    await pool.resize(1);
    // Busy threads finish their job; none is taken above the new bound.
    expect(pool.stats()).toMatchObject({ maxThreads: 1, threads: 3, busy: 3 });
    expect(await Promise.all(answers)).toEqual(['0', '1', '2', '3', '4', '5', '6'].map((value) => `t:${value}`));
    expect(pool.stats()).toMatchObject({ threads: 1, busy: 0, queued: 0 });
    await pool.resize(0);
    expect(pool.stats()).toMatchObject({ threads: 0 });
    await expect(pool.resize(-1)).rejects.toThrow(RangeError);
    await expect(pool.resize(1.5)).rejects.toThrow(RangeError);
  });

  it('cancels a waiting job without posting it, and ends the thread of a running one, starting a new thread for the next', async () => {
    const pool = makePool({ size: 1 });
    const heard = vi.fn();
    const running = pool.submit('a', { spin: true }, { answer: heard, crash: heard });
    const waiting = pool.submit('b', { value: 'never' }, { answer: heard, crash: heard });
    expect(pool.stats()).toMatchObject({ threads: 1, busy: 1, queued: 1 });
    waiting.cancel();
    expect(pool.stats()).toMatchObject({ threads: 1, busy: 1, queued: 0 });
    running.cancel();
    running.cancel();
    expect(pool.stats()).toMatchObject({ threads: 0, busy: 0, queued: 0 });
    expect(await ask(pool, 'b', { value: 'next' })).toBe('t:next');
    expect(heard).not.toHaveBeenCalled();
    expect(pool.stats()).toMatchObject({ threads: 1, busy: 0 });
  });

  it('fails the job of a thread that dies, tells the crash hook whether it ever answered, and goes on with a new thread', async () => {
    const crashes: boolean[] = [];
    const pool = makePool({ size: 1, onCrash: (_cause, answered) => crashes.push(answered) });
    await expect(ask(pool, 'a', { exit: true })).rejects.toThrow(/exit code 3/u);
    expect(await ask(pool, 'a', { value: 'x' })).toBe('t:x');
    await expect(ask(pool, 'a', { exit: true })).rejects.toThrow(/exit code 3/u);
    expect(crashes).toEqual([false, true]);
    expect(await ask(pool, 'b', { value: 'y' })).toBe('t:y');
  });

  it('ends an idle thread after its idle time, and starts one again when a job comes', async () => {
    const pool = makePool({ size: 2, idleMs: 20 });
    expect(await ask(pool, 'a', { value: 'x' })).toBe('t:x');
    await vi.waitFor(() => expect(pool.stats().threads).toBe(0), { timeout: 10_000 });
    expect(await ask(pool, 'a', { value: 'y' })).toBe('t:y');
  });

  it('reads the worker options each time a thread starts', async () => {
    let tag = 'first';
    const pool = makePool({
      size: 1,
      worker: () => ({ file: SOURCE, options: { eval: true, workerData: { tag }, stdout: false, stderr: false } }),
    });
    expect(await ask(pool, 'a', { value: 'x' })).toBe('first:x');
    await pool.resize(0);
    await pool.resize(1);
    tag = 'second';
    expect(await ask(pool, 'a', { value: 'x' })).toBe('second:x');
  });
});
