import { LibosError, parseConfig, type ConfigInput, type WorkspacePath } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { createAuthority } from '../src/authority/create-authority.js';

const own = 'process:pid_0123456789abcdef';

function failureOf(run: () => void) {
  try {
    run();
  } catch (error) {
    if (LibosError.is(error)) return error.toFailure();
    throw error;
  }
  return 'ok';
}

describe('namespaces', () => {
  const authority = createAuthority({
    config: parseConfig({
      namespaces: [
        { name: 'shared', rights: ['read', 'write'] },
        { name: 'inbox', rights: ['write'] },
        { name: 'library/docs', rights: ['read'] },
      ],
    }),
  });
  const check = (namespace: string, right: 'read' | 'write') => failureOf(() => authority.authorizeNamespace(namespace, right, own));

  it('lets a process read and write its own namespace, even with a policy that grants nothing', () => {
    const strict = createAuthority({ config: parseConfig({ grants: [] }) });
    expect(failureOf(() => strict.authorizeNamespace(own, 'read', own))).toBe('ok');
    expect(failureOf(() => strict.authorizeNamespace(own, 'write', own))).toBe('ok');
  });

  it.each([
    ['shared', 'read', 'ok'],
    ['shared', 'write', 'ok'],
    ['inbox', 'write', 'ok'],
    ['library/docs', 'read', 'ok'],
  ] as const)('grants %s %s as declared', (namespace, right, expected) => {
    expect(check(namespace, right)).toBe(expected);
  });

  it.each([
    ['inbox', 'read', 'Reading the namespace "inbox" is not permitted.'],
    ['library/docs', 'write', 'Writing the namespace "library/docs" is not permitted.'],
  ] as const)('denies %s %s, a right not declared', (namespace, right, message) => {
    expect(check(namespace, right)).toEqual({ code: 'denied', message, effect: 'none', details: { right, namespace } });
  });

  it.each(['process:pid_ffffffffffffffff', 'unknown', 'Shared', 'library', 'shared/sub'])('reports %s as missing, for every right', (namespace) => {
    for (const right of ['read', 'write'] as const) {
      expect(check(namespace, right)).toEqual({
        code: 'namespace_not_found',
        message: `The namespace ${JSON.stringify(namespace)} does not exist.`,
        effect: 'none',
        details: { namespace },
      });
    }
  });
});

describe('labels and sinks', () => {
  function lookups(config: ConfigInput) {
    const authority = createAuthority({ config: parseConfig(config) });
    return {
      label: (path: string) => authority.labelOf(path as WorkspacePath),
      clearance: (path: string) => authority.clearanceOf(path as WorkspacePath),
    };
  }

  it('default to normal', () => {
    const { label, clearance } = lookups({});
    expect([label('.'), label('a/b'), clearance('a/b')]).toEqual(['normal', 'normal', 'normal']);
  });

  it('match an exact rule only at its path, a tree rule at its path and below', () => {
    const { label } = lookups({
      labels: [
        { path: 'notes.txt', label: 'secret' },
        { path: 'keys', tree: true, label: 'confidential' },
      ],
    });
    expect(label('notes.txt')).toBe('secret');
    expect(label('notes.txt/x')).toBe('normal');
    expect(label('keys')).toBe('confidential');
    expect(label('keys/a/b')).toBe('confidential');
    expect(label('keys2')).toBe('normal');
    expect(label('ke')).toBe('normal');
  });

  it('let the longest matching path win, whichever label is higher', () => {
    const { label, clearance } = lookups({
      labels: [
        { path: '.', tree: true, label: 'confidential' },
        { path: 'secrets', tree: true, label: 'secret' },
        { path: 'secrets/public', tree: true, label: 'public' },
        { path: 'secrets/public/readme', label: 'normal' },
      ],
      sinks: [
        { path: 'vault', tree: true, max_label: 'secret' },
        { path: 'vault/outbox', tree: true, max_label: 'public' },
      ],
    });
    expect(label('x')).toBe('confidential');
    expect(label('secrets/x')).toBe('secret');
    expect(label('secrets/public/x')).toBe('public');
    expect(label('secrets/public/readme')).toBe('normal');
    expect(clearance('vault/x')).toBe('secret');
    expect(clearance('vault/outbox/x')).toBe('public');
    expect(clearance('elsewhere')).toBe('normal');
  });

  it('among rules at the same path pick the highest label and the lowest clearance', () => {
    const { label, clearance } = lookups({
      labels: [
        { path: 'a', tree: true, label: 'confidential' },
        { path: 'a', label: 'secret' },
        { path: 'a', tree: true, label: 'public' },
        { path: 'b', tree: true, label: 'public' },
        { path: 'b', tree: true, label: 'confidential' },
      ],
      sinks: [
        { path: 'out', tree: true, max_label: 'secret' },
        { path: 'out', max_label: 'public' },
        { path: 'out', tree: true, max_label: 'confidential' },
      ],
    });
    expect(label('a')).toBe('secret');
    expect(label('a/x')).toBe('confidential');
    expect(label('b/x')).toBe('confidential');
    expect(clearance('out')).toBe('public');
    expect(clearance('out/x')).toBe('confidential');
  });
});
