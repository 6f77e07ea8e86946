import * as host from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Runs right after the seed's lstat of a host entry, to swap it before the copy opens it.
const hooks: { afterLstat?: ((path: string) => void) | undefined } = {};
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const lstatSync = ((...args: Parameters<typeof real.lstatSync>) => {
    const stats = real.lstatSync(...args);
    hooks.afterLstat?.(String(args[0]));
    return stats;
  }) as typeof real.lstatSync;
  return { ...real, lstatSync };
});
const { createMemfsProvider } = await import('../src/index.js');

const bases: string[] = [];
afterEach(() => {
  hooks.afterLstat = undefined;
  for (const base of bases.splice(0)) host.rmSync(base, { recursive: true, force: true });
});

describe('seed races', () => {
  const swaps: Record<string, (path: string) => void> = {
    'a symlink': (path) => host.symlinkSync('/etc/passwd', path),
    nothing: () => undefined,
    // unlink then mkdir usually reuses the inode number, so the inode check alone passes.
    'a directory': (path) => host.mkdirSync(path),
  };
  for (const [name, swap] of Object.entries(swaps)) {
    it(`refuses with a LibosError naming no host path when a file becomes ${name} during seeding`, () => {
      const base = host.mkdtempSync(join(tmpdir(), 'libos-memfs-race-'));
      bases.push(base);
      host.mkdirSync(join(base, 'sub'));
      host.writeFileSync(join(base, 'sub', 'victim'), 'v');
      hooks.afterLstat = (path) => {
        if (!path.endsWith('victim')) return;
        hooks.afterLstat = undefined;
        host.unlinkSync(path);
        swap(path);
      };
      let thrown: unknown;
      try {
        createMemfsProvider({ seed: base });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ name: 'LibosError', code: 'provider_failure', details: { path: 'sub/victim' } });
      expect(String((thrown as Error).message)).not.toContain(base);
      expect(JSON.stringify((thrown as { details: unknown }).details)).not.toContain(base);
    });
  }
});
