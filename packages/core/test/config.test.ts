import { describe, expect, it } from 'vitest';
import { DEFAULT_BOUNDS, LibosError, parseConfig } from '../src/index.js';

function messageOf(value: unknown): string {
  try {
    parseConfig(value);
  } catch (error) {
    if (LibosError.is(error, 'invalid_arguments')) return error.message;
    throw error;
  }
  throw new Error('the config was accepted');
}

describe('parseConfig', () => {
  it('fills defaults for an empty config', () => {
    const config = parseConfig({});
    expect(config.bounds).toEqual(DEFAULT_BOUNDS);
    expect(config.grants).toBeUndefined();
    expect(config.namespaces).toEqual([]);
  });

  it('keeps given bounds and grants with their defaults', () => {
    const config = parseConfig({
      bounds: { list_limit_default: 10 },
      grants: [{ path: 'src', tree: true, rights: ['read'] }],
    });
    expect(config.bounds.list_limit_default).toBe(10);
    expect(config.bounds.list_limit_max).toBe(DEFAULT_BOUNDS.list_limit_max);
    expect(config.grants).toEqual([{ path: 'src', tree: true, rights: ['read'], mode: 'allow' }]);
  });

  it('has the Object Memory quotas of docs/rules.md and keeps a policy_id exactly', () => {
    const config = parseConfig({ policy_id: 'fleet-α', bounds: { objects_max_count: 3 } });
    expect(DEFAULT_BOUNDS.objects_max_bytes).toBe(268_435_456);
    expect(DEFAULT_BOUNDS.objects_max_count).toBe(100_000);
    expect(config.bounds.objects_max_count).toBe(3);
    expect(config.bounds.objects_max_bytes).toBe(268_435_456);
    expect(config.policy_id).toBe('fleet-α');
    expect(parseConfig({}).policy_id).toBeUndefined();
  });

  it.each([
    [{ grants: [{ path: '.', rights: ['exec'] }] }, 'config.grants[0].rights[0]'],
    [{ grants: [{ path: '.', rights: ['read'], mode: 'maybe' }] }, 'config.grants[0].mode'],
    [{ grants: [{ path: '.', rights: ['read'], uses: 0 }] }, 'config.grants[0].uses'],
    [{ grants: [{ path: '.', rights: ['read'], uses: 1.5 }] }, 'config.grants[0].uses'],
    [{ grants: [{ path: './src', rights: ['read'] }] }, 'config.grants[0].path: not a canonical'],
    [{ grants: [{ path: '/abs', rights: ['read'] }] }, 'config.grants[0].path'],
    [{ grants: [{ path: '.', rights: [] }] }, 'config.grants[0].rights: must not be empty'],
    [{ labels: [{ path: 'x', label: 'top' }] }, 'config.labels[0].label'],
    [{ sinks: [{ path: 'x/', max_label: 'secret' }] }, 'config.sinks[0].path'],
    [{ namespaces: [{ name: ' shared', rights: ['read'] }] }, 'config.namespaces[0].name'],
    [
      {
        namespaces: [
          { name: 'a', rights: ['read'] },
          { name: 'a', rights: ['write'] },
        ],
      },
      'declared twice',
    ],
    [{ bounds: { read_max_bytes_limit: -1 } }, 'config.bounds.read_max_bytes_limit'],
    [{ bounds: { list_limit_default: 20_000 } }, 'list_limit_default exceeds list_limit_max'],
    [{ bounds: { objects_max_count: 0 } }, 'config.bounds.objects_max_count: expected a positive integer'],
    [{ bounds: { objects_max_bytes: '1' } }, 'config.bounds.objects_max_bytes'],
    [{ policy_id: '' }, 'config.policy_id'],
    [{ policy_id: ' fleet' }, 'config.policy_id'],
    [{ policy_id: 'a\nb' }, 'config.policy_id'],
    [{ policy_id: 7 }, 'config.policy_id'],
    [{ extra: true }, 'unknown field "extra"'],
  ])('refuses %j naming %s', (value, fragment) => {
    expect(messageOf(value)).toContain(fragment);
  });
});
