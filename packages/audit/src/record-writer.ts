import { closeSync, constants, fchmodSync, fstatSync, fsync, fsyncSync, ftruncateSync, openSync, writeSync, type PathLike } from 'node:fs';
import { promisify } from 'node:util';
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { AuditCheckpoint, AuditEntry, AuditRecord } from './audit-record.js';
import { canonicalJson } from './canonical-json.js';
import { signCheckpoint } from './checkpoint-signature.js';
import { lastLineOf } from './read-tail.js';
import { recordLine } from './record-line.js';
import { verify } from './verify-log.js';
import { GENESIS, sha256Hex } from './sha256.js';

const fsyncAsync = promisify(fsync);

// No record comes near this; a longer last line means the file is not a log.
const MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** How often the writer flushes and checkpoints (docs/audit.md). */
export interface WriterTiming {
  readonly checkpointEvery: number;
  readonly checkpointIntervalMs: number;
  readonly flushIntervalMs: number;
}

/** Appends records to one log file, each with its seq and the SHA-256 of the line before it. */
export interface RecordWriter {
  /**
   * Chains one record and writes it before the current turn ends (with the records of the calls
   * that ended in the same turn, in one write); resolves once it is in the file, so a caller that
   * awaits it answers only after. Rejects when the record could not be written (none of its batch
   * is kept and the chain goes back to the last record on disk, so the next call tries again), and
   * once the log is closed or stopped.
   */
  append(entry: AuditEntry): Promise<void>;
  /** Fsyncs the log, then appends a checkpoint naming the last record (if any since the last one); rejects if it could not. */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
}

/** Opens (creating 0600) or resumes a log and its checkpoints; a resumed log continues its chain. */
export function openRecordWriter(
  path: string,
  signingKey: KeyObject | undefined,
  timing: WriterTiming,
  onError: (error: unknown) => void,
): RecordWriter {
  const logFd = openPrivate(path);
  let checkpointFd: number;
  try {
    checkpointFd = openPrivate(`${path}.checkpoints`);
  } catch (error) {
    closeSync(logFd);
    throw error;
  }
  let seq = 0;
  let last = GENESIS;
  let checkpointed = 0;
  try {
    const tail = lastLineOf(logFd, MAX_RECORD_BYTES);
    if (tail !== undefined) {
      const record = JSON.parse(tail.toString('utf8')) as Partial<AuditRecord>;
      if (!Number.isSafeInteger(record.seq) || (record.seq as number) < 1) throw new Error('bad seq');
      seq = record.seq as number;
      last = sha256Hex(tail);
    }
    const checkpointTail = lastLineOf(checkpointFd, MAX_RECORD_BYTES);
    if (checkpointTail !== undefined) checkpointed = (JSON.parse(checkpointTail.toString('utf8')) as AuditCheckpoint).seq;
  } catch (error) {
    closeSync(logFd);
    closeSync(checkpointFd);
    throw new TypeError(`The file ${path} is not an audit log this writer can continue: its last line is not a record.`, { cause: error });
  }
  if (checkpointed > seq) {
    // Records a checkpoint vouches for are gone: continuing would bury the evidence under new ones.
    closeSync(logFd);
    closeSync(checkpointFd);
    throw new TypeError(`The audit log ${path} holds fewer records than its last checkpoint names (it was truncated); run libos audit verify.`);
  }
  // A keyed writer signs what it continues: a log rewritten by someone without the key (its
  // checkpoints dropped, a record removed and the chain redone) is refused, never signed over.
  const verdict = signingKey === undefined || seq === 0 ? undefined : verify(path, { publicKey: createPublicKey(signingKey) });
  if (verdict !== undefined && !verdict.ok) {
    closeSync(logFd);
    closeSync(checkpointFd);
    throw new TypeError(
      `The audit log ${path} does not verify with this key (${verdict.reason} at seq ${verdict.first_bad_seq}): it is not continued or signed; run libos audit verify.`,
    );
  }
  // What is on disk, as this writer knows it: a failed write is cut back to these sizes.
  let logSize = fstatSync(logFd).size;
  let checkpointSize = fstatSync(checkpointFd).size;
  let dirty = false;
  let chain: Promise<void> = Promise.resolve();
  // The checkpoint due every `checkpointEvery` records: calls that end while it is written wait for it.
  let due: Promise<void> | undefined;
  let broken: unknown;
  let failing = false;
  let closed = false;

  const failed = (error: unknown) => {
    // Told once per run of failures, again after the log has recovered and failed anew.
    if (!failing) onError(error);
    failing = true;
  };

  // The lines of the records chained since the last write, in order, written together.
  let pending = '';
  let batch: Promise<void> | undefined;
  let settleBatch: (error?: unknown) => void = () => {};
  // The chain as it stood before the pending lines, to go back to if they cannot be written.
  let batchSeq = seq;
  let batchLast = last;
  const writePending = () => {
    if (pending === '') return;
    const text = pending;
    const settle = settleBatch;
    pending = '';
    batch = undefined;
    try {
      writeLine(logFd, text);
      logSize += Buffer.byteLength(text, 'utf8');
      dirty = true;
      failing = false;
      settle();
    } catch (error) {
      // None of these records is kept: the file is cut back to its last whole record and the chain
      // continues from there, so a torn line never stays and the next call tries again.
      failed(error);
      resync();
      settle(error);
    }
  };

  const resync = () => {
    try {
      ftruncateSync(logFd, logSize);
      seq = batchSeq;
      last = batchLast;
    } catch (truncateFailure) {
      // The file's end is not what this writer knows: the chain goes on from what the file holds.
      try {
        const tail = lastLineOf(logFd, MAX_RECORD_BYTES);
        const record = tail === undefined ? { seq: 0 } : (JSON.parse(tail.toString('utf8')) as Partial<AuditRecord>);
        if (!Number.isSafeInteger(record.seq)) throw new Error('bad seq');
        seq = record.seq as number;
        last = tail === undefined ? GENESIS : sha256Hex(tail);
        logSize = fstatSync(logFd).size;
      } catch (error) {
        // Nothing can be chained after a line this writer cannot read back: every later call fails.
        broken = new Error(`The audit log ${path} stopped recording: a write failed and its end cannot be read back.`, {
          cause: error ?? truncateFailure,
        });
        onError(broken);
      }
    }
    if (checkpointed > seq) checkpointed = seq;
  };

  const flush = () => {
    if (!dirty || closed) return;
    dirty = false;
    fsync(logFd, () => {});
  };
  const flushTimer = setInterval(flush, timing.flushIntervalMs);
  flushTimer.unref();
  const checkpointTimer = setInterval(() => writer.checkpoint().catch(() => {}), timing.checkpointIntervalMs);
  checkpointTimer.unref();

  const writer: RecordWriter = {
    append(entry) {
      if (closed) return Promise.reject(new Error(`The audit log ${path} is closed.`));
      if (broken !== undefined) return Promise.reject(broken);
      if (batch === undefined) {
        batchSeq = seq;
        batchLast = last;
        batch = new Promise<void>((resolve, reject) => {
          settleBatch = (error) => (error === undefined ? resolve() : reject(error));
        });
        // Records of calls that end in the same turn share one write; each caller still waits for it.
        queueMicrotask(writePending);
      }
      const line = recordLine(entry, seq + 1, last);
      seq += 1;
      last = sha256Hex(line);
      pending += `${line}\n`;
      // Taken now: a checkpoint writes the pending lines at once, and ends the batch.
      const written = batch;
      if (seq - checkpointed >= timing.checkpointEvery) {
        const checkpoint = writer.checkpoint();
        const clear = () => {
          if (due === checkpoint) due = undefined;
        };
        due = checkpoint;
        checkpoint.then(clear, clear);
      }
      // A checkpoint is on disk before any call after the record it names is answered.
      if (due === undefined) return written;
      const checkpoint = due;
      return written.then(() => checkpoint);
    },
    checkpoint() {
      if (closed) return Promise.resolve();
      // What a checkpoint names is written first (its fsync follows).
      writePending();
      if (broken !== undefined) return Promise.reject(broken);
      if (seq === checkpointed) return chain;
      const named = { seq, record_sha256: last };
      const previous = checkpointed;
      checkpointed = seq;
      const attempt = chain.then(async () => {
        // A checkpoint only ever names records that are on disk.
        await fsyncAsync(logFd);
        const checkpoint: AuditCheckpoint = {
          ...named,
          time: new Date().toISOString(),
          signature: signingKey === undefined ? null : signCheckpoint(signingKey, named.seq, named.record_sha256),
        };
        const bytes = Buffer.from(`${canonicalJson(checkpoint)}\n`, 'utf8');
        try {
          writeWhole(checkpointFd, bytes);
          await fsyncAsync(checkpointFd);
        } catch (error) {
          // A torn checkpoint would end the file: it goes, and the next record makes it due again.
          try {
            ftruncateSync(checkpointFd, checkpointSize);
          } catch {
            // The size is re-read below; a torn line left here is what verify reports.
          }
          throw error;
        }
        checkpointSize += bytes.length;
      });
      chain = attempt.catch((error: unknown) => {
        if (checkpointed === named.seq) checkpointed = previous;
        checkpointSize = fstatSafe(checkpointFd, checkpointSize);
        failed(error);
      });
      return attempt;
    },
    async close() {
      if (closed) return;
      writePending();
      try {
        await writer.checkpoint();
      } finally {
        closed = true;
        clearInterval(flushTimer);
        clearInterval(checkpointTimer);
        try {
          fsyncSync(logFd);
          fsyncSync(checkpointFd);
        } finally {
          closeSync(logFd);
          closeSync(checkpointFd);
        }
      }
    },
  };
  return writer;
}

function fstatSafe(fd: number, fallback: number): number {
  try {
    return fstatSync(fd).size;
  } catch {
    return fallback;
  }
}

function openPrivate(path: PathLike): number {
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, 0o600);
  try {
    // A file someone else created with a wider mode is narrowed: a log names every path an agent touched.
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    if (!fstatSync(fd).isFile()) throw new TypeError(`${String(path)} is not a regular file.`);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

// A string goes to the kernel without a Buffer of our own; a short write (rare for a file) finishes from bytes.
function writeLine(fd: number, text: string): void {
  const written = writeSync(fd, text);
  const length = Buffer.byteLength(text, 'utf8');
  if (written < length) writeWhole(fd, Buffer.from(text, 'utf8').subarray(written));
}

function writeWhole(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}
