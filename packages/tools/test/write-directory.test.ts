import { describe, expect, it } from 'vitest';
import { createTestbed } from './support/harness.js';

describe('write_directory', () => {
  it('creates a directory and its missing parents by default', async () => {
    const bed = await createTestbed();
    expect(await bed.ok('write_directory', { path: 'a/b/c' })).toEqual({ path: 'a/b/c', created: true });
    expect(await bed.fixtures.kindOf('a/b/c')).toBe('directory');
  });

  it('reports created for the final directory only', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('a/b');
    expect(await bed.ok('write_directory', { path: 'a/b' })).toEqual({ path: 'a/b', created: false });
    expect(await bed.ok('write_directory', { path: 'x/y' })).toEqual({ path: 'x/y', created: true });
    expect(await bed.ok('write_directory', { path: 'x/y/' })).toEqual({ path: 'x/y', created: false });
  });

  it('with exist_ok false refuses an existing directory', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('a');
    expect(await bed.fail('write_directory', { path: 'a', exist_ok: false })).toMatchObject({ code: 'already_exists', effect: 'none' });
    expect(await bed.ok('write_directory', { path: 'b', exist_ok: false })).toEqual({ path: 'b', created: true });
  });

  it('with parents false refuses a missing parent and creates under an existing one', async () => {
    const bed = await createTestbed();
    expect(await bed.fail('write_directory', { path: 'p/q', parents: false })).toMatchObject({ code: 'not_found', effect: 'none' });
    expect(await bed.fixtures.kindOf('p')).toBe('missing');
    await bed.fixtures.makeDirectory('p');
    expect(await bed.ok('write_directory', { path: 'p/q', parents: false })).toEqual({ path: 'p/q', created: true });
  });

  it('treats the root as an existing directory', async () => {
    const bed = await createTestbed();
    expect(await bed.ok('write_directory', { path: '.' })).toEqual({ path: '.', created: false });
    expect(await bed.ok('write_directory', { path: 'a/..', parents: false })).toEqual({ path: '.', created: false });
    expect(await bed.fail('write_directory', { path: '.', exist_ok: false })).toMatchObject({ code: 'already_exists' });
  });

  it('refuses a non-directory in the way, wrong kind first', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('file', 'x');
    await bed.fixtures.makeDirectory('real');
    await bed.fixtures.symlink('link', 'real');
    await bed.fixtures.symlink('dangling', 'nowhere');
    await bed.fixtures.fifo('pipe');
    const cases: [Record<string, unknown>, string][] = [
      [{ path: 'file' }, 'not_a_directory'],
      [{ path: 'file', exist_ok: false }, 'not_a_directory'],
      [{ path: 'file/sub' }, 'not_a_directory'],
      [{ path: 'pipe' }, 'not_a_directory'],
      [{ path: 'link' }, 'symlink_refused'],
      [{ path: 'link/sub' }, 'symlink_refused'],
      [{ path: 'dangling' }, 'symlink_refused'],
      [{ path: 'dangling/sub' }, 'symlink_refused'],
      [{ path: 'x/.git' }, 'protected_path'],
      [{ path: '../x' }, 'outside_workspace'],
    ];
    for (const [args, code] of cases) {
      expect(await bed.fail('write_directory', args), JSON.stringify(args)).toMatchObject({ code });
    }
    expect(await bed.fixtures.kindOf('nowhere')).toBe('missing');
    expect(await bed.fixtures.kindOf('real/sub')).toBe('missing');
    expect(await bed.fixtures.kindOf('x')).toBe('missing');
  });
});
