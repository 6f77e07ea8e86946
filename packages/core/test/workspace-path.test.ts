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

  it('judges component lengths on the input before any `..` is applied', () => {
    const long = 'n'.repeat(256);
    expect(codeOf(() => resolveWorkspacePath(ROOT_PATH, `../${long}`))).toBe('invalid_path');
    expect(codeOf(() => resolveWorkspacePath(cwd, `x/${long}/..`))).toBe('invalid_path');
    expect(codeOf(() => resolveWorkspacePath(ROOT_PATH, `../../${'n'.repeat(255)}`))).toBe('outside_workspace');
  });

  it('refuses above the root before naming .git', () => {
    expect(codeOf(() => resolveWorkspacePath(ROOT_PATH, '.git/../..'))).toBe('outside_workspace');
  });

  it('bounds the joined canonical path at 4096 bytes, so no cwd can grow past what the tools address', () => {
    const deep = `${'d'.repeat(254)}/`.repeat(15) + 'd'.repeat(254); // 16 components, 4079 bytes
    const deepCwd = resolveWorkspacePath(ROOT_PATH, deep);
    expect(new TextEncoder().encode(deepCwd).length).toBe(4079);
    expect(resolveWorkspacePath(deepCwd, 'x'.repeat(16))).toHaveLength(4096);
    expect(codeOf(() => resolveWorkspacePath(deepCwd, 'x'.repeat(17)))).toBe('invalid_path');
    expect(resolveWorkspacePath(deepCwd, `../${'x'.repeat(200)}`)).toHaveLength(4079 - 254 + 200);
    // Repeated relative steps, as repeated set_working_directory calls would take them, stop at the bound.
    let current = ROOT_PATH;
    let steps = 0;
    for (;;) {
      try {
        current = resolveWorkspacePath(current, 'ab');
      } catch (error) {
        expect(LibosError.is(error, 'invalid_path')).toBe(true);
        break;
      }
      steps++;
    }
    expect(steps).toBe(1365);
    expect(new TextEncoder().encode(current).length).toBeLessThanOrEqual(4096);
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
