import type { FactoryContext as HarnessFactoryContext, HarnessFactory } from '@libos/conformance-harness';
import type { FileSystemProviderV1 } from '@libos/core';

/**
 * A place outside the workspace for escape attempts, needed only when links can reach it
 * (`capabilities.symlinks`): symlink targets that reach an outside file holding `OUTSIDE` and an
 * outside directory holding that file, relative to `fromDirectory` (absolute targets are allowed
 * too), plus a fingerprint of everything outside.
 */
export interface OutsideFixtures {
  fileTarget(fromDirectory: string): string;
  directoryTarget(fromDirectory: string): string;
  /** A file in the workspace whose second hard link lives outside; absent when impossible. */
  hardLinkFromOutside?(path: string): Promise<void>;
  /** A stable digest of every name, kind and byte outside the workspace. */
  fingerprint(): Promise<string>;
}

/**
 * Raw operations on a provider's backing store, for states the provider interface cannot create
 * (links, FIFOs, `.git` directories) and for observing effects without trusting the provider.
 * Paths are root-relative with `/` separators and are not checked: `.git/x` is allowed here.
 * Only the first four are always required; the others follow the capabilities the provider declares.
 */
export interface ProviderFixtures {
  /** Writes a regular file, creating missing parent directories. */
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  /** Creates a directory and its missing parents. */
  makeDirectory(path: string): Promise<void>;
  /** Reads a regular file's bytes, or null when nothing regular is there. */
  readFile(path: string): Promise<Uint8Array | null>;
  /** Observes the kind at a path without following links. */
  kindOf(path: string): Promise<'file' | 'directory' | 'symlink' | 'other' | 'missing'>;
  /** Creates a symbolic link at `path` whose target text is exactly `target`; required with `capabilities.symlinks`. */
  symlink?(path: string, target: string): Promise<void>;
  /** Gives an existing regular file a second name; required with `capabilities.hardLinks`. */
  hardLink?(existingPath: string, newPath: string): Promise<void>;
  /** Creates a FIFO (or another special file); absent when the store cannot hold one. */
  fifo?(path: string): Promise<void>;
  /** Reads and sets a regular file's permission bits (`0o7777` mask); absent when the store has none. */
  readonly modes?: {
    get(path: string): Promise<number>;
    set(path: string, mode: number): Promise<void>;
  };
  /** Removes the workspace root itself and all it holds, to check calls made after it is gone; optional. */
  removeWorkspace?(): Promise<void>;
  /** Outside the workspace; required with `capabilities.symlinks`, optional otherwise (its fingerprint is then checked too). */
  readonly outside?: OutsideFixtures;
}

/** Fixtures as a case sees them: the link fixtures are there whenever a case that needs them runs. */
export interface CaseFixtures extends ProviderFixtures {
  symlink(path: string, target: string): Promise<void>;
  hardLink(existingPath: string, newPath: string): Promise<void>;
  readonly outside: OutsideFixtures;
}

/** Says which fixtures the declared capabilities need and the factory left out, or undefined. */
export function missingFixtures(underTest: ProviderUnderTest): string | undefined {
  const { capabilities } = underTest.provider;
  const { fixtures } = underTest;
  const missing: string[] = [];
  if (capabilities.symlinks && fixtures.symlink === undefined) missing.push('symlink (capabilities.symlinks is declared)');
  if (capabilities.symlinks && fixtures.outside === undefined) missing.push('outside (capabilities.symlinks is declared)');
  if (capabilities.hardLinks && fixtures.hardLink === undefined) missing.push('hardLink (capabilities.hardLinks is declared)');
  return missing.length === 0 ? undefined : `The fixtures lack ${missing.join(', ')}.`;
}

/** What a provider factory hands the kit for one test. */
export interface ProviderUnderTest {
  readonly provider: FileSystemProviderV1;
  readonly fixtures: ProviderFixtures;
  /**
   * Where the workspace lives in the backing store (a host directory, a volume path), when known:
   * no error message or detail may contain it. `/workspace` and `provider.hostPath('.')` are always checked.
   */
  readonly hostRoot?: string;
}

/** Context passed to a factory: register cleanups that run after the test. */
export type FactoryContext = HarnessFactoryContext;

/** Makes a fresh provider (and its fixtures) for every test. */
export type ProviderFactory = HarnessFactory<ProviderUnderTest>;
