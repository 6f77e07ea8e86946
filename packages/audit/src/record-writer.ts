import { closeSync, constants, fchmodSync, fstatSync, fsync, fsyncSync, openSync, writeSync, type PathLike } from 'node:fs';
import { promisify } from 'node:util';
import type { KeyObject } from 'node:crypto';
import type { AuditCheckpoint, AuditEntry, AuditRecord } from './audit-record.js';
import { canonicalJson } from './canonical-json.js';
import { signCheckpoint } from './checkpoint-signature.js';
import { lastLineOf } from './read-tail.js';
import { recordLine } from './record-line.js';
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
   * awaits it answers only after. Throws once the log is closed or stopped.
   */
  append(entry: AuditEntry): Promise<void>;
  /** Fsyncs the log, then appends a checkpoint naming the last record (if any since the last one). */
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
  let dirty = false;
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown;
  let broken: unknown;
  let closed = false;

  // The lines of the records chained since the last write, in order, written together.
  let pending = '';
  let batch: Promise<void> | undefined;
  let releaseBatch: () => void = () => {};
  const writePending = () => {
    if (pending === '') return;
    const text = pending;
    const release = releaseBatch;
    pending = '';
    batch = undefined;
    try {
      if (broken === undefined) writeLine(logFd, text);
      dirty = true;
    } catch (error) {
      // A torn line may now end the file: nothing may be chained after it.
      broken = error;
      onError(error);
    } finally {
      release();
    }
  };

  const flush = () => {
    if (!dirty || closed) return;
    dirty = false;
    fsync(logFd, () => {});
  };
  const flushTimer = setInterval(flush, timing.flushIntervalMs);
  flushTimer.unref();
  const checkpointTimer = setInterval(() => void writer.checkpoint(), timing.checkpointIntervalMs);
  checkpointTimer.unref();

  const writer: RecordWriter = {
    append(entry) {
      if (closed) throw new Error(`The audit log ${path} is closed.`);
      if (broken !== undefined) throw new Error(`The audit log ${path} stopped recording after a failed write.`, { cause: broken });
      const line = recordLine(entry, seq + 1, last);
      seq += 1;
      last = sha256Hex(line);
      pending += `${line}\n`;
      if (batch === undefined) {
        batch = new Promise<void>((resolve) => (releaseBatch = resolve));
        // Records of calls that end in the same turn share one write; each caller still waits for it.
        queueMicrotask(writePending);
      }
      if (seq - checkpointed >= timing.checkpointEvery) void writer.checkpoint();
      return batch;
    },
    checkpoint() {
      if (seq === checkpointed || closed) return chain;
      // What a checkpoint names is written first (its fsync follows).
      writePending();
      const named = { seq, record_sha256: last };
      checkpointed = seq;
      chain = chain.then(async () => {
        // A checkpoint only ever names records that are on disk.
        await fsyncAsync(logFd);
        const checkpoint: AuditCheckpoint = {
          ...named,
          time: new Date().toISOString(),
          signature: signingKey === undefined ? null : signCheckpoint(signingKey, named.seq, named.record_sha256),
        };
        writeWhole(checkpointFd, Buffer.from(`${canonicalJson(checkpoint)}\n`, 'utf8'));
        await fsyncAsync(checkpointFd);
      });
      chain = chain.catch((error: unknown) => {
        failure ??= error;
      });
      return chain;
    },
    async close() {
      if (closed) return;
      writePending();
      await writer.checkpoint();
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
      if (failure !== undefined) throw failure;
    },
  };
  return writer;
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
