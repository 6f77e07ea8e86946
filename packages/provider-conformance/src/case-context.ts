import { createHash } from 'node:crypto';
import { describeValue, detailsDrift as tableDrift, expectLibosError, withinDeadline } from '@libos/conformance-harness';
import { PROVIDER_ERROR_DETAILS, ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { LibosError } from '@libos/core';

export { describeValue } from '@libos/conformance-harness';
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
    expectError: (action, codes, effect = 'none') =>
      expectLibosError(action, codes, effect, (error) => {
        const leak = findLeak(`${error.message}\n${JSON.stringify(error.details ?? {})}`);
        if (leak !== undefined) return `The ${error.code} error reveals ${JSON.stringify(leak)}: ${error.message}`;
        const drift = detailsDrift(error);
        return drift === undefined ? undefined : `The ${error.code} error's details ${drift} (details: ${describeValue(error.details)}).`;
      }),
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
    withinDeadline: (action, milliseconds) => withinDeadline(action, milliseconds, `The call did not settle within ${milliseconds} ms.`),
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

/**
 * Says how an error's `details` differ from the shape core's `providerErrors` gives every provider
 * (a `path`, then the keys by code in `PROVIDER_ERROR_DETAILS`, snake_case, plain values), or
 * undefined when they match.
 */
export function detailsDrift(error: LibosError): string | undefined {
  const details = error.details;
  if (details === undefined || typeof details !== 'object' || details === null) return 'are missing (every provider error names its path)';
  return (
    tableDrift(error, PROVIDER_ERROR_DETAILS, 'PROVIDER_ERROR_DETAILS') ??
    (typeof details.path === 'string' ? undefined : 'lack path, the canonical path of the call')
  );
}
