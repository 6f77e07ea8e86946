import type { FileSystemProviderV1 } from '@libos/core';

/**
 * Raw operations on a provider's backing store, for states the provider interface cannot create
 * (links, FIFOs, `.git` directories) and for observing effects without trusting the provider.
 * Paths are root-relative with `/` separators and are not checked: `.git/x` is allowed here.
 */
export interface ProviderFixtures {
  /** Writes a regular file, creating missing parent directories. */
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  /** Creates a directory and its missing parents. */
  makeDirectory(path: string): Promise<void>;
  /** Creates a symbolic link at `path` whose target text is exactly `target`. */
  symlink(path: string, target: string): Promise<void>;
  /** Gives an existing regular file a second name. */
  hardLink(existingPath: string, newPath: string): Promise<void>;
  /** Creates a FIFO (or another special file); absent when the store cannot hold one. */
  fifo?(path: string): Promise<void>;
  /** Reads a regular file's bytes, or null when nothing regular is there. */
  readFile(path: string): Promise<Uint8Array | null>;
  /** Observes the kind at a path without following links. */
  kindOf(path: string): Promise<'file' | 'directory' | 'symlink' | 'other' | 'missing'>;
  /** Reads and sets a regular file's permission bits (`0o7777` mask); absent when the store has none. */
  readonly modes?: {
    get(path: string): Promise<number>;
    set(path: string, mode: number): Promise<void>;
  };
  /** Removes the workspace root itself and all it holds, to check calls made after it is gone; optional. */
  removeWorkspace?(): Promise<void>;
  /**
   * A place outside the workspace for escape attempts: symlink targets that reach an outside file
   * holding `OUTSIDE` and an outside directory holding that file, relative to `fromDirectory`
   * (absolute targets are allowed too), plus a fingerprint of everything outside.
   */
  readonly outside: {
    fileTarget(fromDirectory: string): string;
    directoryTarget(fromDirectory: string): string;
    /** A file in the workspace whose second hard link lives outside; absent when impossible. */
    hardLinkFromOutside?(path: string): Promise<void>;
    /** A stable digest of every name, kind and byte outside the workspace. */
    fingerprint(): Promise<string>;
  };
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
export interface FactoryContext {
  onCleanup(cleanup: () => void | Promise<void>): void;
}

/** Makes a fresh provider (and its fixtures) for every test. */
export type ProviderFactory = (context: FactoryContext) => ProviderUnderTest | Promise<ProviderUnderTest>;
