import type { IFs } from 'memfs';
import { describe, expect, it } from 'vitest';
import { bytesOf, failsWith, p, testbed, text } from './helpers.js';

/**
 * Every memfs call walks its path from the volume root, so an operation's cost on a deep path is the
 * number of memfs calls it makes times the depth. These count the calls (never the time): resolving
 * a path must take a handful of calls whatever its depth, not one per component (a 2,000-level path
 * took seconds per operation that way).
 */
function countCalls(volume: IFs): { readonly calls: () => number } {
  let calls = 0;
  const target = volume as unknown as Record<string, unknown>;
  for (const name of Object.keys(target)) {
    const original = target[name];
    if (typeof original !== 'function' || !name.endsWith('Sync')) continue;
    target[name] = (...args: unknown[]) => {
      calls++;
      return (original as (...inner: unknown[]) => unknown)(...args);
    };
  }
  return { calls: () => calls };
}

const DEPTH = 200;
const deep = Array.from({ length: DEPTH }, (_, index) => `d${index}`).join('/');

describe('deep paths', () => {
  it('makes, writes, reads and observes a deep path in memfs calls that do not grow with its depth', async () => {
    const { provider, volume } = testbed();
    const counter = countCalls(volume);
    const counted = async <T>(call: () => Promise<T>): Promise<{ result: T; calls: number }> => {
      const before = counter.calls();
      const result = await call();
      return { result, calls: counter.calls() - before };
    };
    const made = await counted(() => provider.makeDirectory(p(deep), { parents: true, existOk: false }));
    expect(made.result).toEqual({ created: true });
    const written = await counted(() => provider.writeFile(p(`${deep}/f`), bytesOf('bottom'), { overwrite: false }));
    expect(written.result).toEqual({ created: true });
    const read = await counted(() => provider.readFile(p(`${deep}/f`), { maxBytes: 16 }));
    expect(text(read.result.bytes)).toBe('bottom');
    const stat = await counted(() => provider.stat(p(deep)));
    expect(stat.result.kind).toBe('directory');
    const listed = await counted(() => provider.listDirectory(p(deep), { limit: 10 }));
    expect(listed.result.entries.map((entry) => entry.name)).toEqual(['f']);
    for (const { calls } of [made, written, read, stat, listed]) expect(calls).toBeLessThan(DEPTH / 10);
  });

  it('still names the component that stops a deep walk, and deletes a deep tree whole', async () => {
    const { provider, fixtures, volume } = testbed();
    await provider.makeDirectory(p(deep), { parents: true, existOk: false });
    await fixtures.writeFile(`${deep}/f`, 'x');
    // A link to a real directory: memfs would follow it, and the path it makes resolves.
    await fixtures.symlink('d0/d1/d2/link', 'd3');
    const through = await failsWith(provider.readFile(p('d0/d1/d2/link/d4/d5'), { maxBytes: 1 }), 'symlink_refused');
    expect(through.details).toMatchObject({ link: 'd0/d1/d2/link' });
    const file = await failsWith(provider.readFile(p(`${deep}/f/under`), { maxBytes: 1 }), 'not_a_directory');
    expect(file.details).toMatchObject({ component: `${deep}/f` });
    volume.linkSync(`/workspace/${deep}/f`, '/workspace/kept');
    expect(await provider.deleteDirectory(p('d0'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
    expect(await fixtures.kindOf('d0')).toBe('missing');
    // The tree's name for the file is gone, so the name outside is the only one again.
    expect(volume.lstatSync('/workspace/kept').nlink).toBe(1);
  });
});
