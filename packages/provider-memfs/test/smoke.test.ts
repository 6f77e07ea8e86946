import { describe, expect, it } from 'vitest';
import { bytesOf, failsWith, p, testbed, text } from './helpers.js';

describe('memfs provider smoke', () => {
  it('writes, reads, lists and deletes', async () => {
    const { provider, fixtures } = testbed();
    expect(await provider.writeFile(p('a/b.txt'), bytesOf('hello'), { overwrite: true })).toEqual({ created: true });
    expect(text((await provider.readFile(p('a/b.txt'), { maxBytes: 10 })).bytes)).toBe('hello');
    expect((await provider.listDirectory(p('a'), { limit: 5 })).entries.map((entry) => entry.name)).toEqual(['b.txt']);
    await fixtures.symlink('a/link', '../x');
    await failsWith(provider.readFile(p('a/link'), { maxBytes: 5 }), 'symlink_refused');
    await provider.deleteDirectory(p('a'), { recursive: true, missingOk: false });
    expect(await fixtures.kindOf('a')).toBe('missing');
  });
});
