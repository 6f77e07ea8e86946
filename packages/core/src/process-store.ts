import type { StoreCallOptions } from './object-store.js';

/**
 * What a process handle leads to (docs/mcp.md, the agent's process as data): the process's id,
 * whose Object namespace is `process:<pid>`, and its working directory.
 */
export interface ProcessRecord {
  /** `pid_` followed by 16 lowercase hex digits. */
  readonly pid: string;
  /** The working directory, a canonical path relative to the workspace root. */
  readonly cwd: string;
}

/**
 * Where the processes of stateless callers live between their calls. A record is found by a key
 * the runtime derives from the caller's principal and the handle together (a SHA-256), so a store
 * never holds a handle or a token, and a handle named by anyone but its owner is a key that does
 * not exist: the same lookup, the same miss. Idle time is measured by the store's own clock, so
 * every host behind one store agrees on which processes have expired.
 */
export interface ProcessStoreV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  /** Records a new process under `key` (fresh random keys never collide). Throws `provider_failure`. */
  create(key: string, record: ProcessRecord, options?: StoreCallOptions): Promise<void>;
  /**
   * The record under `key` when it was used within `idleMs`, its idle time restarted; undefined for
   * a key that does not exist or has expired. One statement. Throws `provider_failure`.
   */
  touch(key: string, idleMs: number, options?: StoreCallOptions): Promise<ProcessRecord | undefined>;
  /** Moves the working directory of a live record; false when it has expired or never existed. Throws `provider_failure`. */
  setCwd(key: string, cwd: string, idleMs: number, options?: StoreCallOptions): Promise<boolean>;
  /**
   * Removes every record idle past `idleMs` and returns their pids, each to exactly one caller
   * even when many hosts sweep at once, so that one of them drops its namespace. Throws `provider_failure`.
   */
  sweep(idleMs: number, options?: StoreCallOptions): Promise<readonly string[]>;
  /** Ends the store's connections (a store made from a pool you own leaves the pool open). Safe to call twice. */
  close(): Promise<void>;
}
