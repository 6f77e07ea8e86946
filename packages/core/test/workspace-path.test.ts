import { describe, expect, it } from 'vitest';
import { LibosError, ROOT_PATH, parseCanonicalPath, resolveWorkspacePath, type WorkspacePath } from '../src/index.js';

const cwd = 'a/b' as WorkspacePath;

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (LibosError.is(error)) return error.code;
    throw error;
  }
  return undefined;
}

describe('resolveWorkspacePath', () => {
  it.each([
    ['x', 'a/b/x'],
    ['', 'a/b'],
    ['.', 'a/b'],
    ['./c//d/', 'a/b/c/d'],
    ['..', 'a'],
    ['../..', '.'],
    ['c/../../d', 'a/d'],
    ['back\\slash', 'a/b/back\\slash'],
    ['%2e%2e', 'a/b/%2e%2e'],
    [' spaced ', 'a/b/ spaced '],
  ])('resolves %j against a/b to %j', (input, expected) => {
    expect(resolveWorkspacePath(cwd, input)).toBe(expected);
  });

  it('resolves against the root', () => {
    expect(resolveWorkspacePath(ROOT_PATH, 'x/./y/..')).toBe('x');
    expect(resolveWorkspacePath(ROOT_PATH, '')).toBe('.');
  });

  it.each([
    ['nul', 'a\0b', 'invalid_path'],
    ['absolute', '/etc/passwd', 'invalid_path'],
    ['double-slash absolute', '//x', 'invalid_path'],
    ['over 4096 bytes', 'a/'.repeat(2049), 'invalid_path'],
    ['component over 255 bytes', 'é'.repeat(128), 'invalid_path'],
    ['lone surrogate', 'x\ud800', 'invalid_path'],
    ['above the root', '../../..', 'outside_workspace'],
    ['above the root then back', '../../../a', 'outside_workspace'],
    ['.git', '.git', 'protected_path'],
    ['.git below', 'x/.git/config', 'protected_path'],
    ['.git undone by ..', '.git/../x', 'protected_path'],
  ])('refuses %s', (_name, input, code) => {
    expect(codeOf(() => resolveWorkspacePath(cwd, input))).toBe(code);
  });

  it('checks NUL before anything else', () => {
    expect(codeOf(() => resolveWorkspacePath(cwd, '/../\0'))).toBe('invalid_path');
  });

  it('accepts 255-byte components and 4096-byte paths', () => {
    expect(resolveWorkspacePath(ROOT_PATH, 'é'.repeat(127) + 'x')).toHaveLength(128);
    const long = `${'x'.repeat(255)}/`.repeat(16); // 4096 bytes
    expect(codeOf(() => resolveWorkspacePath(ROOT_PATH, long))).toBeUndefined();
  });
});

describe('parseCanonicalPath', () => {
  it.each(['.', 'a', 'a/b', 'a b/c'])('accepts %j', (value) => {
    expect(parseCanonicalPath(value)).toBe(value);
  });
  it.each(['', './a', 'a/', 'a//b', '/a', 'a/../b', '..', '.git', 'x/.GIT'])('refuses %j', (value) => {
    expect(parseCanonicalPath(value)).toBeNull();
  });
});
