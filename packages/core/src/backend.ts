import type { Bounds } from './config.js';
import type { ObjectStoreV1 } from './object-store.js';
import type { FileSystemProviderV1 } from './provider.js';

/**
 * What an app finds a backend by: a provider by name (`--provider NAME`) or an Object store by URL
 * scheme (`--objects postgres://…`). A package contributes one from its `./backend` entry, which
 * must stay light: `open` loads the implementation. See docs/backends.md.
 */
export type Backend = ProviderBackend | ObjectStoreBackend;

/** A flag of a backend's own, always with a value (`--seed DIR`), named without its dashes. */
export interface BackendFlag {
  /** The value's placeholder in help texts, e.g. `DIR` or `URL`. */
  readonly value: string;
  readonly description: string;
  /** The backend cannot open without it: the app refuses to start, naming the flag. */
  readonly required?: boolean;
}

/** A workspace provider an app opens by name. */
export interface ProviderBackend {
  readonly kind: 'provider';
  /** `--provider NAME`: lowercase letters, digits and dashes. */
  readonly name: string;
  /** One line for help texts. */
  readonly summary: string;
  /**
   * It serves the host directory `--root` names: apps default it (the current directory, or the
   * client's MCP root) and refuse `--root` for backends without one.
   */
  readonly servesRoot: boolean;
  /** Its own flags; one given to another backend is refused before anything opens. */
  readonly flags: Readonly<Record<string, BackendFlag>>;
  /** Opens the provider; a bad value fails with an Error whose one-line message names the flag. */
  open(request: ProviderBackendRequest): Promise<OpenedProvider>;
}

/** What an app passes to `ProviderBackend.open`. */
export interface ProviderBackendRequest {
  /** The absolute host directory to serve, for a backend that `servesRoot`. */
  readonly root?: string;
  /** The values of the backend's own flags that were given. */
  readonly flags: Readonly<Record<string, string>>;
  /**
   * The app's process resolves no relative path on another thread while it serves, so a local
   * provider may borrow its working directory (a speed-up; ignore it when it means nothing).
   */
  readonly borrowWorkingDirectory: boolean;
  /** The runtime's bounds (docs/rules.md); a backend that stores files itself honours `workspace_max_bytes`. */
  readonly bounds: Bounds;
  /**
   * The app only reads what it opens (`libos export`, a person's command): a backend that creates
   * its workspace on first use refuses a missing one instead, with a message naming the flag.
   */
  readonly existingOnly?: boolean;
}

/** An opened provider and what the app says and guards about it. */
export interface OpenedProvider {
  readonly provider: FileSystemProviderV1;
  /** What is served, for the start-up line, already safe to print (escaped for display). */
  readonly served: string;
  /**
   * Host directories the agent reaches through the provider: files the app keeps for the person
   * (checkpoints, audit logs, overlay state) must lie outside every one of them.
   */
  readonly hostDirectories: readonly string[];
  /** Releases what `open` took (connections); the app calls it after the runtime closed. */
  close?(): Promise<void>;
}

/** An Object store an app opens from a URL (`ObjectStoreV1`, beside the provider interface). */
export interface ObjectStoreBackend<Store = ObjectStoreV1> {
  readonly kind: 'object-store';
  readonly name: string;
  /** URL schemes it opens, lowercase with the colon: `postgres:`. */
  readonly schemes: readonly string[];
  /** Opens the store; a failure's one-line message never includes a password. */
  open(url: string): Promise<Store>;
}
