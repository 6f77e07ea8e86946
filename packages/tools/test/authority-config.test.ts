import { LibosError, parseConfig } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { createAuthority } from '../src/authority/create-authority.js';

function refusalOf(value: unknown): string {
  try {
    createAuthority({ config: parseConfig(value) });
  } catch (error) {
    if (LibosError.is(error, 'invalid_arguments')) return error.message;
    throw error;
  }
  throw new Error('the config was accepted');
}

describe('a malformed policy is refused at start, naming the field and the reason', () => {
  const grant = (fields: Record<string, unknown>) => ({ grants: [{ path: '.', tree: true, rights: ['read'] }, fields] });

  it.each<[unknown, string]>([
    [grant({ path: 'a', rights: ['execute'] }), 'config.grants[1].rights[0]: expected one of "read", "write", "delete"'],
    [grant({ path: 'a', rights: 'read' }), 'config.grants[1].rights:'],
    [grant({ path: 'a', rights: [] }), 'config.grants[1].rights: must not be empty'],
    [grant({ path: 'a', rights: ['read'], mode: 'sometimes' }), 'config.grants[1].mode: expected one of "allow", "ask", "deny"'],
    [grant({ path: 'a', rights: ['read'], mode: 'Allow' }), 'config.grants[1].mode'],
    [grant({ path: 'a', rights: ['read'], uses: 0 }), 'config.grants[1].uses: expected a positive integer'],
    [grant({ path: 'a', rights: ['read'], uses: -3 }), 'config.grants[1].uses: expected a positive integer'],
    [grant({ path: 'a', rights: ['read'], uses: 1.5 }), 'config.grants[1].uses: expected a positive integer'],
    [grant({ path: 'a', rights: ['read'], uses: '2' }), 'config.grants[1].uses: expected a positive integer'],
    [grant({ path: 'a', rights: ['read'], uses: null }), 'config.grants[1].uses: expected a positive integer'],
    [grant({ path: 'a', rights: ['read'], mode: 'deny', uses: 1 }), 'config.grants[1].uses: uses applies only to allow and ask grants'],
    [grant({ path: 'a', rights: ['read'], reason: 'shown' }), 'config.grants[1].reason: reason applies only to deny grants'],
    [grant({ path: 'a', rights: ['read'], mode: 'deny', reason: '' }), 'config.grants[1].reason: expected 1 to 200 printable characters'],
    [grant({ path: 'a', rights: ['read'], mode: 'deny', reason: 'a\u202Eb' }), 'config.grants[1].reason: expected 1 to 200 printable characters'],
    [grant({ path: 'a', rights: ['read'], mode: 'deny', reason: 'x'.repeat(201) }), 'config.grants[1].reason: expected 1 to 200'],
    [grant({ path: 'a', rights: ['read'], tree: 'yes' }), 'config.grants[1].tree'],
    [grant({ path: 'a', rights: ['read'], recursive: true }), 'config.grants[1]: unknown field "recursive"'],
    [grant({ rights: ['read'] }), 'config.grants[1].path'],
    ...['./a', 'a/', '/a', 'a//b', 'a/./b', 'a/../b', '..', '', '.git', 'src/.GIT/x', 'a\0b'].map((path): [unknown, string] => [
      grant({ path, rights: ['read'] }),
      'config.grants[1].path: not a canonical root-relative path',
    ]),
    [{ grants: { path: '.', rights: ['read'] } }, 'config.grants:'],
    [{ labels: [{ path: 'a/', label: 'secret' }] }, 'config.labels[0].path: not a canonical root-relative path'],
    [{ labels: [{ path: 'a', label: 'top-secret' }] }, 'config.labels[0].label: expected one of'],
    [{ sinks: [{ path: '../out', max_label: 'secret' }] }, 'config.sinks[0].path: not a canonical root-relative path'],
    [{ sinks: [{ path: 'out', label: 'secret' }] }, 'config.sinks[0]'],
    [{ namespaces: [{ name: 'shared', rights: ['delete'] }] }, 'config.namespaces[0].rights[0]: expected one of "read", "write"'],
    [{ namespaces: [{ name: 'process:pid_0000000000000000', rights: ['read'] }] }, 'config.namespaces[0].name'],
  ])('%j', (value, fragment) => {
    expect(refusalOf(value)).toContain(fragment);
  });

  it('accepts every documented field', () => {
    const config = parseConfig({
      grants: [
        { path: '.', tree: true, rights: ['read'] },
        { path: 'src', tree: true, rights: ['write', 'delete'], mode: 'ask' },
        { path: 'notes.txt', rights: ['write'], uses: 1 },
        { path: 'private', tree: true, rights: ['read', 'write', 'delete'], mode: 'deny' },
      ],
      namespaces: [{ name: 'shared', rights: ['read', 'write'] }],
      labels: [{ path: 'secrets', tree: true, label: 'secret' }],
      sinks: [{ path: 'vault', tree: true, max_label: 'secret' }],
    });
    expect(() => createAuthority({ config })).not.toThrow();
  });
});
