import { createHash } from 'node:crypto';
import { LibosError, PROVIDER_ERROR_DETAILS, ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { ErrorCode } from '@libos/core';
import type { CaseContext } from './conformance-case.js';
import type { CaseFixtures, OutsideFixtures, ProviderFixtures, ProviderUnderTest } from './provider-fixtures.js';

/** The text every outside file holds; it must never come back from the provider. */
export const OUTSIDE_MARKER = 'OUTSIDE';

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Lowercase hex SHA-256 of some bytes. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256')
    .update(typeof bytes === 'string' ? utf8(bytes) : bytes)
    .digest('hex');
}

/** Builds the context one case runs with, recording what the fixtures create. */
export function createCaseContext(underTest: ProviderUnderTest): CaseContext {
  const { provider } = underTest;
  const created = new Set<string>();
  const forbidden = new Set<string>(['/workspace', OUTSIDE_MARKER]);
  if (underTest.hostRoot !== undefined && underTest.hostRoot !== '') forbidden.add(underTest.hostRoot);
  try {
    const hostRoot = provider.hostPath?.(ROOT_PATH);
    if (hostRoot !== undefined && hostRoot !== '') forbidden.add(hostRoot);
  } catch {
    // A provider without host directories may throw here; nothing to forbid then.
  }
  // Link targets that climb or start at `/` can never be part of a canonical path, so seeing one in a
  // message means the provider read the link.
  const forbidTarget = (target: string): string => {
    if (target.startsWith('/') || target.includes('..')) forbidden.add(target);
    return target;
  };
  const fixtures = recordingFixtures(underTest.fixtures, created, forbidTarget);

  const findLeak = (text: string): string | undefined => [...forbidden].find((secret) => text.includes(secret));

  const context: CaseContext = {
    provider,
    fixtures,
    path: (text) => resolveWorkspacePath(ROOT_PATH, text),
    async expectError(action, codes, effect = 'none') {
      const expected: readonly ErrorCode[] = typeof codes === 'string' ? [codes] : codes;
      const wanted = expected.join(' or ');
      let result: unknown;
      try {
        result = await action();
      } catch (error) {
        if (!LibosError.is(error)) throw new Error(`Expected a LibosError ${wanted}, got ${describeThrown(error)}.`);
        if (!expected.includes(error.code)) {
          throw new Error(`Expected ${wanted}, got ${error.code} (${error.message}).`);
        }
        if (effect !== 'any' && error.effect !== effect) throw new Error(`Expected ${error.code} with effect ${effect}, got ${error.effect}.`);
        const leak = findLeak(`${error.message}\n${JSON.stringify(error.details ?? {})}`);
        if (leak !== undefined) throw new Error(`The ${error.code} error reveals ${JSON.stringify(leak)}: ${error.message}`);
        const drift = detailsDrift(error);
        if (drift !== undefined) throw new Error(`The ${error.code} error's details ${drift} (details: ${describeValue(error.details)}).`);
        return error;
      }
      throw new Error(`Expected ${wanted}, but the call succeeded with ${describeValue(result)}.`);
    },
    expectClean(value) {
      const leak = findLeak(describeValue(value, Number.POSITIVE_INFINITY));
      if (leak !== undefined) throw new Error(`The provider returned ${JSON.stringify(leak)}.`);
    },
    async snapshot(extra = []) {
      const lines: string[] = [];
      for (const path of [...new Set([...created, ...extra])].sort()) lines.push(`${path}: ${await observe(underTest.fixtures, path)}`);
      if (underTest.fixtures.outside !== undefined) lines.push(`outside: ${await underTest.fixtures.outside.fingerprint()}`);
      return lines.join('\n');
    },
    async withinDeadline(action, milliseconds) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`The call did not settle within ${milliseconds} ms.`)), milliseconds);
      });
      try {
        return await Promise.race([action(), deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
  return context;
}

function recordingFixtures(fixtures: ProviderFixtures, created: Set<string>, forbidTarget: (target: string) => string): CaseFixtures {
  const record = (path: string): void => {
    created.add(path);
  };
  // Cases that need a missing fixture are gated off (run-case.ts), so these throw only on a kit bug.
  const absent = (name: string) => async (): Promise<never> => {
    throw new Error(`The case needs the ${name} fixture, which the factory does not provide.`);
  };
  const outside = fixtures.outside;
  const fifo = fixtures.fifo?.bind(fixtures);
  const symlink = fixtures.symlink?.bind(fixtures);
  const hardLink = fixtures.hardLink?.bind(fixtures);
  const hardLinkFromOutside = outside?.hardLinkFromOutside?.bind(outside);
  const recordedOutside: OutsideFixtures =
    outside === undefined
      ? {
          fileTarget: () => {
            throw new Error('The case needs the outside fixtures, which the factory does not provide.');
          },
          directoryTarget: () => {
            throw new Error('The case needs the outside fixtures, which the factory does not provide.');
          },
          fingerprint: async () => '',
        }
      : {
          fileTarget: (fromDirectory) => forbidTarget(outside.fileTarget(fromDirectory)),
          directoryTarget: (fromDirectory) => forbidTarget(outside.directoryTarget(fromDirectory)),
          ...(hardLinkFromOutside === undefined ? {} : { hardLinkFromOutside: async (path: string) => (record(path), hardLinkFromOutside(path)) }),
          fingerprint: () => outside.fingerprint(),
        };
  return {
    writeFile: async (path, content) => (record(path), fixtures.writeFile(path, content)),
    makeDirectory: async (path) => (record(path), fixtures.makeDirectory(path)),
    symlink: symlink === undefined ? absent('symlink') : async (path, target) => (record(path), symlink(path, forbidTarget(target))),
    hardLink:
      hardLink === undefined
        ? absent('hardLink')
        : async (existingPath, newPath) => (record(existingPath), record(newPath), hardLink(existingPath, newPath)),
    ...(fifo === undefined ? {} : { fifo: async (path: string) => (record(path), fifo(path)) }),
    readFile: (path) => fixtures.readFile(path),
    kindOf: (path) => fixtures.kindOf(path),
    ...(fixtures.modes === undefined ? {} : { modes: fixtures.modes }),
    ...(fixtures.removeWorkspace === undefined ? {} : { removeWorkspace: fixtures.removeWorkspace.bind(fixtures) }),
    outside: recordedOutside,
  };
}

// Observation through fixtures may fail (a path below a link loop): the failure is part of the state.
async function observe(fixtures: ProviderFixtures, path: string): Promise<string> {
  try {
    const kind = await fixtures.kindOf(path);
    if (kind !== 'file') return kind;
    const bytes = await fixtures.readFile(path);
    return bytes === null ? 'file (unreadable)' : `file ${bytes.length} bytes ${sha256Hex(bytes).slice(0, 16)}`;
  } catch (error) {
    return `unobservable (${(error as { code?: unknown }).code ?? 'error'})`;
  }
}

const snakeCase = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/**
 * Says how an error's `details` differ from the shape core's `providerErrors` gives every provider
 * (keys by code in `PROVIDER_ERROR_DETAILS`, snake_case, plain values), or undefined when they match.
 */
export function detailsDrift(error: LibosError): string | undefined {
  const details = error.details;
  if (details === undefined || typeof details !== 'object' || details === null) return 'are missing (every provider error names its path)';
  const keys = Object.keys(details);
  for (const key of keys) {
    if (!snakeCase.test(key)) return `use the key ${JSON.stringify(key)}, which is not snake_case`;
    const value = details[key];
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value))
      return `hold a ${typeof value} under ${JSON.stringify(key)}, not a plain value`;
  }
  if (typeof details.path !== 'string') return 'lack path, the canonical path of the call';
  const shape = PROVIDER_ERROR_DETAILS[error.code];
  if (shape === undefined) return undefined;
  const missing = shape.required.find((key) => !keys.includes(key));
  if (missing !== undefined) return `lack ${JSON.stringify(missing)}, which every ${error.code} carries`;
  const unknown = keys.find((key) => !shape.required.includes(key) && !shape.optional.includes(key));
  if (unknown !== undefined) return `hold ${JSON.stringify(unknown)}, which is not a ${error.code} key (see PROVIDER_ERROR_DETAILS)`;
  return undefined;
}

function describeThrown(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : describeValue(error);
}

/** Text of a value for messages and leak checks; bytes are shown as Latin-1 so any content shows. */
export function describeValue(value: unknown, limit = 300): string {
  const text =
    JSON.stringify(value, (_key, item: unknown) =>
      item instanceof Uint8Array ? `bytes(${item.length}):${Buffer.from(item).toString('latin1')}` : item,
    ) ?? String(value);
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
