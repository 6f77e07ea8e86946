import { closeSync } from 'node:fs';
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { AuditEntry } from './audit-record.js';
import { readCheckpointedSeq, readLogHead, type LogHead } from './log-head.js';
import { openPrivate } from './log-files.js';
import { LogWriter } from './log-writer.js';
import { verify } from './verify-log.js';
import { openWriterLease, type WriterLease } from './writer-lock.js';

/** How often the writer flushes and checkpoints, and how long it waits for another writer (docs/audit.md). */
export interface WriterTiming {
  readonly checkpointEvery: number;
  readonly checkpointIntervalMs: number;
  readonly flushIntervalMs: number;
  readonly lockWaitMs: number;
}

/** Appends records to one log file, each with its seq and the SHA-256 of the line before it. */
export interface RecordWriter {
  /**
   * Queues one record, chained and written with the records of the calls that ended in the same
   * turn, in one write, under the writers' lock; resolves once it is in the file, so a caller that
   * awaits it answers only after. Rejects when the record could not be written (none of its batch
   * is kept and the chain goes back to the last record on disk, so the next call tries again), when
   * another writer kept the lock past the wait, and once the log is closed or stopped.
   */
  append(entry: AuditEntry): Promise<void>;
  /** Fsyncs the log, then appends a checkpoint naming the log's last record (if none names it yet); rejects if it could not. */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
}

/** Opens (creating 0600) or resumes a log and its checkpoints, under the writers' lock; a resumed log continues its chain. */
export async function openRecordWriter(
  path: string,
  signingKey: KeyObject | undefined,
  timing: WriterTiming,
  onError: (error: unknown) => void,
): Promise<RecordWriter> {
  const logFd = openPrivate(path);
  let checkpointFd: number | undefined;
  let lease: WriterLease | undefined;
  let head: LogHead;
  let checkpointed: number;
  try {
    checkpointFd = openPrivate(`${path}.checkpoints`);
    lease = openWriterLease(path, { waitMs: timing.lockWaitMs });
    await lease.wait();
    try {
      head = readLogHead(logFd);
      checkpointed = readCheckpointedSeq(checkpointFd);
    } catch (error) {
      throw new TypeError(`The file ${path} is not an audit log this writer can continue: its last line is not a record.`, { cause: error });
    }
    // Records a checkpoint vouches for are gone: continuing would bury the evidence under new ones.
    if (checkpointed > head.seq)
      throw new TypeError(`The audit log ${path} holds fewer records than its last checkpoint names (it was truncated); run libos audit verify.`);
    // A keyed writer signs what it continues: a log rewritten by someone without the key (its
    // checkpoints dropped, a record removed and the chain redone) is refused, never signed over.
    const verdict = signingKey === undefined || head.seq === 0 ? undefined : verify(path, { publicKey: createPublicKey(signingKey) });
    if (verdict !== undefined && !verdict.ok) {
      throw new TypeError(
        `The audit log ${path} does not verify with this key (${verdict.reason} at seq ${verdict.first_bad_seq}): it is not continued or signed; run libos audit verify.`,
      );
    }
  } catch (error) {
    lease?.close();
    closeSync(logFd);
    if (checkpointFd !== undefined) closeSync(checkpointFd);
    throw error;
  }
  return new LogWriter(path, signingKey, timing, onError, logFd, checkpointFd, lease, head, checkpointed);
}
