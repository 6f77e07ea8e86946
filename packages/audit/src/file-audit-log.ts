import { randomBytes, type KeyObject } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { dirname, basename, join, relative, isAbsolute, resolve } from 'node:path';
import { LibosError, type AuditClient, type AuditSession, type AuditTrail } from '@libos/core';
import type { AuditEffect, AuditEntry, AuditResult } from './audit-record.js';
import { openArgumentKey } from './argument-key.js';
import { argumentsDigester, type ArgumentsDigest } from './canonical-hash.js';
import { toSigningKey } from './checkpoint-signature.js';
import { openCallRecorder } from './call-recorder.js';
import { isoTime } from './iso-time.js';
import { openRecordWriter, type RecordWriter } from './record-writer.js';

/** Options of `createFileAuditLog`. */
export interface FileAuditLogOptions {
  /** The log file (host path); `PATH.checkpoints`, `PATH.key` (its argument key), `PATH.lock` and `PATH.wait` (its writers' lock) sit beside it. */
  readonly path: string;
  /** An Ed25519 private key (KeyObject or PEM) that signs every checkpoint. */
  readonly signingKey?: KeyObject | string;
  /** Records between checkpoints (default 1000). */
  readonly checkpointEvery?: number;
  /** Milliseconds between checkpoints while records arrive (default 10000). */
  readonly checkpointIntervalMs?: number;
  /** Milliseconds between flushes to disk (default 1000). */
  readonly flushIntervalMs?: number;
  /**
   * Milliseconds a write waits for another writer of the same log to let go of it (default
   * 10000) before its calls fail `provider_failure` (`details.reason: "writer_busy"`).
   */
  readonly lockWaitMs?: number;
  /**
   * Told when a record or checkpoint cannot be written (the call it belonged to fails
   * `provider_failure`; the next one tries again): once per run of failures.
   */
  readonly onError?: (error: unknown) => void;
}

/** An overlay operation a person ran (`apply`, `undo_apply`, `discard`, `rewind`, `fork`), for its record. */
export interface OverlayOperation {
  readonly operation: 'apply' | 'undo_apply' | 'discard' | 'rewind' | 'fork';
  /** Its arguments (hashed, never written). */
  readonly arguments?: unknown;
  /** The canonical paths it named or changed. */
  readonly paths?: readonly string[];
  readonly result: AuditResult;
  readonly effects?: readonly AuditEffect[];
  readonly durationMs?: number;
}

/** A session of a file log: the runtime's calls, and the overlay operations a person runs. */
export interface FileAuditSession extends AuditSession {
  /** Writes the record of one overlay operation a person ran. */
  recordOperation(operation: OverlayOperation): Promise<void>;
}

/** An audit trail in one file, its chain and its checkpoints (docs/audit.md). */
export interface FileAuditLog extends AuditTrail {
  readonly path: string;
  openSession(info: { readonly provider: string; readonly root?: string; readonly session?: string }): Promise<FileAuditSession>;
  /** Ends the sessions still open, writes a last checkpoint, flushes and lets go of the writers' lock. */
  close(): Promise<void>;
}

/**
 * Opens the log at `path` for writing, creating it (0600) or continuing its chain; other writers,
 * in this process or others, may append to it at the same time (each takes the writers' lock in
 * turn). Throws `invalid_arguments` when the file is not a log or for a bad key, and
 * `provider_failure` (`writer_busy`) when another writer kept the lock past `lockWaitMs`.
 */
export async function createFileAuditLog(options: FileAuditLogOptions): Promise<FileAuditLog> {
  const path = resolve(options.path);
  let signingKey: KeyObject | undefined;
  try {
    signingKey = options.signingKey === undefined ? undefined : toSigningKey(options.signingKey);
  } catch (error) {
    throw new LibosError('invalid_arguments', 'The audit signing key is not an Ed25519 private key.', { cause: error });
  }
  let writer: RecordWriter;
  let digestArguments: ArgumentsDigest;
  try {
    // Made with the log, beside it (so outside every root, as the log must be), before any record.
    digestArguments = argumentsDigester(openArgumentKey(`${path}.key`));
    writer = await openRecordWriter(
      path,
      signingKey,
      {
        checkpointEvery: options.checkpointEvery ?? 1000,
        checkpointIntervalMs: options.checkpointIntervalMs ?? 10_000,
        flushIntervalMs: options.flushIntervalMs ?? 1000,
        lockWaitMs: options.lockWaitMs ?? 10_000,
      },
      (error) => options.onError?.(error),
    );
  } catch (error) {
    // Another writer that kept the lock past the wait is told as it is (provider_failure, writer_busy).
    if (LibosError.is(error)) throw error;
    throw new LibosError('invalid_arguments', error instanceof Error ? error.message : `The audit log ${path} cannot be opened.`, { cause: error });
  }
  const open = new Set<FileAuditSession>();
  let closing: Promise<void> | undefined;
  const append = (entry: AuditEntry): Promise<void> => writer.append(entry);

  return {
    path,
    async openSession(info) {
      if (closing !== undefined) throw new LibosError('invalid_arguments', `The audit log ${path} is closed.`);
      if (info.root !== undefined && isInside(path, info.root)) {
        throw new LibosError('invalid_arguments', `The audit log ${path} lies inside the workspace root; put it outside every root.`);
      }
      const id = info.session ?? `ses_${randomBytes(8).toString('hex')}`;
      const started = performance.now();
      const marker = (tool: string, durationMs: number, session = id, client: AuditClient | null = null): AuditEntry => ({
        time: isoTime(),
        session,
        process: null,
        client,
        tool,
        arguments_sha256: null,
        paths: [],
        decision: null,
        result: { ok: true },
        effects: [],
        duration_ms: durationMs,
      });
      await append(marker('session_start', 0));
      // The sessions inside this one (MCP sessions over HTTP) still open, and when each started.
      const inner = new Map<string, number>();
      let ended = false;
      let inFlight = 0;
      let settled: (() => void) | undefined;
      // One function for every call of the session (a call made per call would be one more allocation each).
      const appendCall = (entry: AuditEntry): Promise<void> => {
        const written = append(entry);
        inFlight -= 1;
        if (inFlight === 0) settled?.();
        return written;
      };
      const session: FileAuditSession = {
        id,
        begin(start) {
          inFlight += 1;
          return openCallRecorder(id, start, appendCall, digestArguments);
        },
        async recordSession(event, caller) {
          const client = caller.client === undefined ? null : { name: String(caller.client.name), version: String(caller.client.version) };
          if (event === 'session_start') {
            inner.set(caller.session, performance.now());
            await append(marker('session_start', 0, caller.session, client));
            return;
          }
          const began = inner.get(caller.session) ?? performance.now();
          inner.delete(caller.session);
          await append(marker('session_end', roundMs(performance.now() - began), caller.session, client));
          await writer.checkpoint();
        },
        async recordOperation(operation) {
          await append({
            time: isoTime(),
            session: id,
            process: null,
            client: null,
            tool: operation.operation,
            arguments_sha256: operation.arguments === undefined ? null : digestArguments(operation.arguments),
            paths: [...(operation.paths ?? [])],
            // A person ran it: no grant decides a person's own command.
            decision: null,
            result: operation.result.ok ? { ok: true } : { ok: false, code: operation.result.code, effect: operation.result.effect },
            effects: [...(operation.effects ?? [])],
            duration_ms: roundMs(operation.durationMs ?? 0),
          });
        },
        async end() {
          if (ended) return;
          ended = true;
          open.delete(session);
          // Calls still running (a runtime closed under them) get their records before the end
          // record, unless one waits on a person longer than a shutdown can wait.
          if (inFlight > 0) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, END_WAIT_MS);
              settled = () => {
                clearTimeout(timer);
                resolve();
              };
            });
          }
          await append(marker('session_end', roundMs(performance.now() - started)));
          // A signed checkpoint covers every ended session: verify with a key calls a log without one truncated.
          await writer.checkpoint();
        },
      };
      open.add(session);
      return session;
    },
    close() {
      closing ??= (async () => {
        for (const session of [...open]) await session.end();
        await writer.close();
      })();
      return closing;
    },
  };
}

const END_WAIT_MS = 2000;

/** Milliseconds to the microsecond, so records stay short. */
export function roundMs(value: number): number {
  return Math.round(value * 1000) / 1000;
}

// Resolved through links on both sides, so a log reached by a link into the root is refused too.
function isInside(file: string, root: string): boolean {
  const real = (target: string) => {
    try {
      return realpathSync(target);
    } catch {
      return resolve(target);
    }
  };
  const directory = join(real(dirname(file)), basename(file));
  const from = relative(real(root), directory);
  return from === '' || (from !== '..' && !from.startsWith('../') && !isAbsolute(from));
}
