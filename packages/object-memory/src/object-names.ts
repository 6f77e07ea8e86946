import { LibosError, isValidNamespace } from '@libos/core';

/** The prefix of every process's own namespace. */
export const PROCESS_NAMESPACE_PREFIX = 'process:';

/** The namespace a process owns: `process:<pid>`. */
export function processNamespace(processId: string): string {
  return `${PROCESS_NAMESPACE_PREFIX}${processId}`;
}

/**
 * Trims an Object name and checks it. Throws `invalid_name` for an empty name, `.`, `..`, a name
 * holding `/` or `\`, or a lone surrogate (no checkpoint could store it exactly, so one such
 * Object would make every checkpoint of its namespace fail).
 */
export function normalizeObjectName(input: string): string {
  if (!input.isWellFormed()) {
    throw new LibosError('invalid_name', 'The Object name must be well-formed Unicode (no lone surrogate).', {
      details: { reason: 'not_unicode' },
    });
  }
  const name = input.trim();
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\\')) {
    throw new LibosError('invalid_name', 'The Object name must not be empty, ".", "..", or contain "/" or "\\".', {
      details: { name: input },
    });
  }
  return name;
}

/**
 * Checks a namespace name. Throws `invalid_namespace` when it is empty, has surrounding whitespace,
 * or has empty, `.` or `..` segments between `/`.
 */
export function assertValidNamespace(namespace: string): void {
  if (!isValidNamespace(namespace)) {
    throw new LibosError('invalid_namespace', 'The namespace must not be empty, have surrounding whitespace, or have empty, "." or ".." segments.', {
      details: { namespace },
    });
  }
}
