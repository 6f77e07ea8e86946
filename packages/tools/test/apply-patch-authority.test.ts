import type { ApprovalRequest, Approver } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { createTestbed, text } from './support/harness.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('apply_patch under grants and labels', () => {
  it('asks once for a patch over several files under one ask grant, showing the whole diff', async () => {
    const seen: ApprovalRequest[] = [];
    const approver: Approver = async (request) => {
      seen.push(request);
      return 'approve';
    };
    const config = {
      grants: [
        { path: '.', tree: true, rights: ['read' as const] },
        { path: 'src', tree: true, rights: ['write' as const, 'delete' as const], mode: 'ask' as const },
      ],
    };
    const bed = await createTestbed({ config, approver });
    await bed.fixtures.writeFile('src/a.txt', 'one\n');
    await bed.fixtures.writeFile('src/b.txt', 'bee\n');
    await bed.ok('apply_patch', {
      patch: patch('*** Update File: src/a.txt', '-one', '+two', '*** Update File: src/b.txt', '-bee', '+BEE', '*** Add File: src/c.txt', '+sea'),
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.preview).toContain('--- a/src/a.txt');
    expect(seen[0]!.preview).toContain('+BEE');
    expect(seen[0]!.preview).toContain('+++ b/src/c.txt');
    expect(text(await bed.fixtures.readFile('src/b.txt'))).toBe('BEE\n');
  });

  it('applies grants per file: one denied file refuses the whole patch before anything is read or written', async () => {
    const bed = await createTestbed({
      config: {
        grants: [
          { path: '.', tree: true, rights: ['read', 'write', 'delete'] },
          { path: 'locked', tree: true, rights: ['write', 'delete'], mode: 'deny' },
        ],
      },
    });
    await bed.fixtures.writeFile('a.txt', 'one\n');
    await bed.fixtures.writeFile('locked/x.txt', 'keep\n');
    for (const body of [
      patch('*** Update File: a.txt', '-one', '+two', '*** Delete File: locked/x.txt'),
      patch('*** Update File: a.txt', '*** Move to: locked/y.txt'),
      patch('*** Update File: locked/x.txt', '*** Move to: free.txt'),
    ]) {
      expect(await bed.fail('apply_patch', { patch: body })).toMatchObject({ code: 'denied', effect: 'none' });
    }
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('one\n');
    expect(text(await bed.fixtures.readFile('locked/x.txt'))).toBe('keep\n');
  });

  it('never moves a file to a lower label (egress_denied, nothing changed)', async () => {
    const bed = await createTestbed({ config: { labels: [{ path: 'secret', tree: true, label: 'secret' }] } });
    await bed.fixtures.writeFile('secret/key.txt', 'k\n');
    const error = await bed.fail('apply_patch', { patch: patch('*** Update File: secret/key.txt', '*** Move to: public/key.txt') });
    expect(error).toMatchObject({ code: 'egress_denied', effect: 'none' });
    expect(text(await bed.fixtures.readFile('secret/key.txt'))).toBe('k\n');
  });
});
