import { parseConfig, type ConfigInput, type TargetKind, type WorkspacePath } from '@libos/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAuthority } from '../src/authority/create-authority.js';

const NAMES = ['a', 'b', 'caf\u00e9', 'cafe\u0301'];
const DIRECTORIES = ['.', 'a', 'b', 'a/a', 'a/b', 'b/a', 'caf\u00e9', 'cafe\u0301/a'];
const PATHS = [...DIRECTORIES, 'a/a/a', 'a/b/b', 'b/b', 'caf\u00e9/a', 'cafe\u0301/b/a'];
const TARGETS: TargetKind[] = ['file', 'directory'];

const grant = fc
  .record({
    path: fc.constantFrom(...PATHS),
    tree: fc.boolean(),
    rights: fc.subarray(['read', 'write', 'delete'] as const, { minLength: 1 }),
    mode: fc.constantFrom('allow', 'allow', 'deny', 'ask'),
    uses: fc.option(fc.constantFrom(1, 3), { nil: undefined }),
  })
  // A deny grant has no uses.
  .map((made) => (made.mode === 'deny' ? { ...made, uses: undefined } : made));

const child = (directory: string, name: string) => (directory === '.' ? name : `${directory}/${name}`) as WorkspacePath;

describe('Permit.coversEntriesOf', () => {
  it('answers true only where covers answers true for every entry of the directory, whatever its name, spelling and target', async () => {
    let vouched = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(grant, { minLength: 1, maxLength: 6 }), fc.constantFrom(...DIRECTORIES), async (grants, root) => {
        const config = parseConfig({ grants } as ConfigInput);
        const authority = createAuthority({ config, approver: async () => 'approve' });
        const permit = await authority
          .authorize({ tool: 'search_files', right: 'read', target: 'directory', path: root as WorkspacePath, argumentsSha256: 'a'.repeat(64) })
          .catch(() => undefined);
        if (permit === undefined) return;
        for (const directory of DIRECTORIES) {
          for (const right of ['read', 'write', 'delete'] as const) {
            if (permit.coversEntriesOf?.(right, directory as WorkspacePath) !== true) continue;
            vouched++;
            for (const name of NAMES) {
              for (const target of TARGETS)
                expect(permit.covers(right, child(directory, name), target), `${right} ${child(directory, name)}`).toBe(true);
            }
          }
        }
      }),
      { numRuns: 400 },
    );
    // Not vacuous: the cheap answer is given in many of the generated policies.
    expect(vouched).toBeGreaterThan(50);
  });

  it('is true everywhere without grants, and false in a directory where a grant names one of its entries', async () => {
    const open = await createAuthority({ config: parseConfig({}) }).authorize({
      tool: 'search_files',
      right: 'read',
      target: 'directory',
      path: '.' as WorkspacePath,
      argumentsSha256: 'a'.repeat(64),
    });
    expect(open.coversEntriesOf?.('read', 'a' as WorkspacePath)).toBe(true);
    const config = parseConfig({
      grants: [
        { path: '.', tree: true, rights: ['read'] },
        { path: 'src/secret.txt', rights: ['read'], mode: 'deny' },
      ],
    });
    const permit = await createAuthority({ config }).authorize({
      tool: 'search_files',
      right: 'read',
      target: 'directory',
      path: '.' as WorkspacePath,
      argumentsSha256: 'a'.repeat(64),
    });
    expect(permit.coversEntriesOf?.('read', 'src' as WorkspacePath)).toBe(false);
    expect(permit.covers('read', 'src/secret.txt' as WorkspacePath, 'file')).toBe(false);
    expect(permit.coversEntriesOf?.('read', '.' as WorkspacePath)).toBe(true);
    expect(permit.coversEntriesOf?.('read', 'src/deeper' as WorkspacePath)).toBe(true);
  });
});
