import { describe, expect, it } from 'vitest';
import { type LibosError, PROVIDER_ERROR_DETAILS, providerErrors, type WorkspacePath } from '../src/index.js';

const p = (text: string) => text as WorkspacePath;

const every: ReadonlyArray<[string, LibosError]> = [
  ['notFound', providerErrors.notFound(p('a/b'))],
  ['notFound below', providerErrors.notFound(p('a/b'), p('a'))],
  ['rootGone', providerErrors.rootGone(p('a'))],
  ['rootReplaced', providerErrors.rootReplaced(p('a'))],
  ['alreadyExists', providerErrors.alreadyExists(p('a'))],
  ['notAFile', providerErrors.notAFile(p('a'), 'directory')],
  ['notADirectory', providerErrors.notADirectory(p('a/b'), p('a'))],
  ['directoryNotEmpty', providerErrors.directoryNotEmpty(p('a'))],
  ['symlinkRefused', providerErrors.symlinkRefused(p('a/b'), p('a'))],
  ['hardLinkRefused', providerErrors.hardLinkRefused(p('a'), 2)],
  ['contentConflict', providerErrors.contentConflict(p('a'), 'f'.repeat(64), '0'.repeat(64))],
  ['contentConflict missing', providerErrors.contentConflict(p('a'), 'missing')],
  ['protectedPath', providerErrors.protectedPath(p('a'), p('a/.git'))],
  ['rootRefused', providerErrors.rootRefused(p('.'))],
  ['changedDuringOperation', providerErrors.changedDuringOperation(p('a'))],
  ['failure', providerErrors.failure(p('a'), 'ENOSPC')],
  ['closed', providerErrors.closed(p('a'), 'example')],
  ['cancelled', providerErrors.cancelled(p('a'))],
  ['tooDeep', providerErrors.tooDeep(p('a'), 2048)],
  ['quotaExceeded', providerErrors.quotaExceeded(p('a'), 10, 5, 12)],
];

describe('providerErrors', () => {
  it.each(every)('%s has exactly the details keys its code allows, all snake_case', (_name, error) => {
    const shape = PROVIDER_ERROR_DETAILS[error.code];
    expect(shape, error.code).toBeDefined();
    const keys = Object.keys(error.details ?? {});
    for (const key of shape!.required) expect(keys).toContain(key);
    for (const key of keys) {
      expect([...shape!.required, ...shape!.optional]).toContain(key);
      expect(key).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
    }
    expect(error.message).toMatch(/^[^\n]+[.]$/);
  });

  it('defaults to effect none, provider_failure from the host to unknown, and takes an explicit effect', () => {
    expect(providerErrors.notFound(p('a')).effect).toBe('none');
    expect(providerErrors.failure(p('a'), null).effect).toBe('unknown');
    expect(providerErrors.failure(p('a'), 'EIO', { effect: 'none' }).effect).toBe('none');
    expect(providerErrors.closed(p('a'), 'x').effect).toBe('none');
    expect(providerErrors.cancelled(p('a'), { effect: 'unknown' }).effect).toBe('unknown');
    expect(providerErrors.notADirectory(p('a'), undefined, { effect: 'unknown' }).effect).toBe('unknown');
  });

  it('words host conditions once and keeps the host code as a value', () => {
    const error = providerErrors.failure(p('x'), 'EROFS');
    expect(error.message).toBe("The workspace is on a read-only filesystem ('x').");
    expect(error.details).toEqual({ path: 'x', host_code: 'EROFS' });
    expect(providerErrors.failure(p('x'), null).details).toEqual({ path: 'x', host_code: null });
  });
});
