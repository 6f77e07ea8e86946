import type * as fs from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalProvider } from '@libos/provider-local';
import { createRuntime } from '@libos/tools';
import { describe, expect, it, vi } from 'vitest';
import { withSearchIndex } from '../src/index.js';
import { sandbox } from './support/sandbox.js';

// The kernel's inotify queue, played at the watcher boundary (Node's `fs.watch`): it holds
// QUEUE_BOUND unread events; past that, events are dropped (and libuv does not pass the kernel's
// notice on) until the queue drains. Here it drains at each barrier's own event, which is how a
// real burst ends: the consumer reads the full queue, then later events queue again.
const QUEUE_BOUND = 8;
const queue = { sinceDrain: 0, dropped: 0 };

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const watch = ((path: string, options: fs.WatchOptions, listener: fs.WatchListener<string>) =>
    real.watch(path, options, (event, name) => {
      if (typeof name === 'string' && name.startsWith('barrier-')) {
        queue.sinceDrain = 0;
        listener(event, name);
        return;
      }
      if (queue.sinceDrain >= QUEUE_BOUND) {
        queue.dropped++;
        return;
      }
      queue.sinceDrain++;
      listener(event, name);
    })) as typeof real.watch;
  const readFileSync = ((path: fs.PathOrFileDescriptor, options?: unknown) =>
    path === '/proc/sys/fs/inotify/max_queued_events'
      ? `${QUEUE_BOUND}\n`
      : real.readFileSync(path, options as Parameters<typeof real.readFileSync>[1])) as typeof real.readFileSync;
  return { ...real, default: { ...real, watch, readFileSync }, watch, readFileSync };
});

describe('an index whose watcher lost events to a full queue', () => {
  it('checks the whole tree, so a file written behind it in the lost part of a burst is still found', async () => {
    const { root, index } = sandbox();
    mkdirSync(join(root, 'a'), { recursive: true });
    mkdirSync(join(root, 'b'));
    writeFileSync(join(root, 'a', 'seed.txt'), 'nothing here\n');
    const indexed = withSearchIndex(createLocalProvider({ root }), { directory: index });
    const agent = (await createRuntime({ provider: indexed.provider })).spawn();
    await indexed.warm();
    expect(indexed.stats().watching).toBe(true);
    // A burst behind the index's back: far more changes than the queue holds before anything is read.
    for (let file = 0; file < 4 * QUEUE_BOUND; file++)
      writeFileSync(join(root, 'a', `burst-${String(file).padStart(3, '0')}.txt`), `plain ${file}\n`);
    // Lost with the rest of the burst: the only change in its directory, so nothing else makes the index list it again.
    writeFileSync(join(root, 'b', 'last.txt'), 'the lostneedle is here\n');
    const outcome = await agent.call('search_files', { path: '.', query: 'lostneedle' });
    expect(queue.dropped).toBeGreaterThan(0);
    expect(outcome.ok && outcome.result).toMatchObject({ count: 1, matches: [{ path: 'b/last.txt', line: 1 }] });
    // Events of a later change queue again: a small change after the burst is seen as usual.
    writeFileSync(join(root, 'a', 'after.txt'), 'another lostneedle\n');
    const again = await agent.call('search_files', { path: '.', query: 'lostneedle' });
    expect(again.ok && again.result).toMatchObject({ count: 2 });
    await indexed.provider.close();
  }, 30_000);
});
