import { closeSync, constants, fchmodSync, fstatSync, fsync, fsyncSync, ftruncateSync, openSync, writeSync, type PathLike } from 'node:fs';
import { promisify } from 'node:util';
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { AuditEntry } from './audit-record.js';
import { writeCheckpoint } from './checkpoint-line.js';
import { followLogHead, readCheckpointedSeq, readLogHead, type LogHead } from './log-head.js';
import { recordLine } from './record-line.js';
import { verify } from './verify-log.js';
import { sha256Hex } from './sha256.js';
import { openWriterLease, type WriterLease } from './writer-lock.js';

const fsyncAsync = promisify(fsync);

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
  return new Writer(path, signingKey, timing, onError, logFd, checkpointFd, lease, head, checkpointed);
}

// A class: its methods are shared, and `append` (run per call) allocates only what a batch needs.
class Writer implements RecordWriter {
  #seq: number;
  #last: string;
  // What is on disk, as this writer knows it under the lock: a failed write is cut back to these sizes.
  #logSize: number;
  #checkpointSize: number;
  #checkpointed: number;
  #generation: number;
  #dirty = false;
  #chain: Promise<void> = Promise.resolve();
  // The checkpoint due every `checkpointEvery` records: calls that end while it is written wait for it.
  #due: Promise<void> | undefined;
  #broken: unknown;
  #failing = false;
  #closed = false;
  // The records queued since the last write, in order, chained and written together.
  #pending: AuditEntry[] = [];
  #batch: Promise<void> | undefined;
  #settle: (error?: unknown) => void = () => {};
  #waiting = false;
  readonly #flushTimer: NodeJS.Timeout;
  readonly #checkpointTimer: NodeJS.Timeout;
  readonly #write = () => this.#writePending();

  constructor(
    readonly path: string,
    readonly signingKey: KeyObject | undefined,
    readonly timing: WriterTiming,
    readonly onError: (error: unknown) => void,
    readonly logFd: number,
    readonly checkpointFd: number,
    readonly lease: WriterLease,
    head: LogHead,
    checkpointed: number,
  ) {
    this.#seq = head.seq;
    this.#last = head.last;
    this.#logSize = head.size;
    this.#checkpointSize = fstatSync(checkpointFd).size;
    this.#checkpointed = checkpointed;
    this.#generation = lease.generation;
    this.#flushTimer = setInterval(() => this.#flush(), timing.flushIntervalMs);
    this.#flushTimer.unref();
    this.#checkpointTimer = setInterval(() => this.checkpoint().catch(() => {}), timing.checkpointIntervalMs);
    this.#checkpointTimer.unref();
  }

  append(entry: AuditEntry): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`The audit log ${this.path} is closed.`));
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    this.#pending.push(entry);
    if (this.#batch === undefined) {
      this.#batch = new Promise<void>((resolve, reject) => {
        this.#settle = (error) => (error === undefined ? resolve() : reject(error));
      });
      // Records of calls that end in the same turn share one write; each caller still waits for it.
      if (!this.#waiting) queueMicrotask(this.#write);
    }
    return this.#batch;
  }

  #failed(error: unknown): void {
    // Told once per run of failures, again after the log has recovered and failed anew.
    if (!this.#failing) this.onError(error);
    this.#failing = true;
  }

  // Under the lock: when another writer held it since this one last did, the head moved on.
  #follow(): void {
    if (this.lease.generation === this.#generation) return;
    const known = { seq: this.#seq, last: this.#last, size: this.#logSize };
    const head = followLogHead(this.path, this.logFd, known);
    // A keyed writer never signs over lines that do not continue the chain it knows.
    if (!head.chained && this.signingKey !== undefined)
      throw new Error(
        `The audit log ${this.path} was changed by something other than a writer (its chain breaks after seq ${known.seq}): it is no longer signed.`,
      );
    this.#seq = head.seq;
    this.#last = head.last;
    this.#logSize = head.size;
    const checkpointSize = fstatSync(this.checkpointFd).size;
    if (checkpointSize !== this.#checkpointSize) {
      this.#checkpointed = readCheckpointedSeq(this.checkpointFd);
      this.#checkpointSize = fstatSync(this.checkpointFd).size;
    }
    this.#generation = this.lease.generation;
  }

  // Takes the lock (waiting for it off the event loop when another writer has it) and follows the head.
  #takeLock(): boolean {
    if (!this.lease.hold()) return false;
    try {
      this.#follow();
    } catch (error) {
      this.#broken = error;
      this.onError(error);
      throw error;
    }
    return true;
  }

  #writePending(): void {
    if (this.#pending.length === 0) return;
    let held: boolean;
    try {
      held = this.#takeLock();
    } catch (error) {
      this.#fail(error);
      return;
    }
    if (!held) {
      this.#waiting = true;
      this.lease.wait().then(
        () => {
          this.#waiting = false;
          this.#writePending();
        },
        (error: unknown) => {
          this.#waiting = false;
          this.#failed(error);
          this.#fail(error);
        },
      );
      return;
    }
    const entries = this.#pending;
    const settle = this.#settle;
    this.#pending = [];
    this.#batch = undefined;
    const batchSeq = this.#seq;
    const batchLast = this.#last;
    let text = '';
    for (let index = 0; index < entries.length; index += 1) {
      const line = recordLine(entries[index]!, this.#seq + 1, this.#last);
      this.#seq += 1;
      this.#last = sha256Hex(line);
      text += `${line}\n`;
    }
    try {
      writeText(this.logFd, text);
      this.#logSize += Buffer.byteLength(text, 'utf8');
      this.#dirty = true;
      this.#failing = false;
    } catch (error) {
      // None of these records is kept: the file is cut back to its last whole record and the chain
      // continues from there, so a torn line never stays and the next call tries again.
      this.#failed(error);
      this.#resync(batchSeq, batchLast);
      settle(error);
      return;
    }
    if (this.#seq - this.#checkpointed >= this.timing.checkpointEvery) {
      const checkpoint = this.checkpoint();
      const clear = () => {
        if (this.#due === checkpoint) this.#due = undefined;
      };
      this.#due = checkpoint;
      checkpoint.then(clear, clear);
    }
    // A checkpoint is on disk before any call after the record it names is answered.
    const due = this.#due;
    if (due === undefined) settle();
    else due.then(() => settle(), settle);
  }

  // The queued records cannot be written (the lock never came, or the log stopped): their calls fail.
  #fail(error: unknown): void {
    const settle = this.#settle;
    this.#pending = [];
    this.#batch = undefined;
    settle(error);
  }

  #resync(batchSeq: number, batchLast: string): void {
    try {
      ftruncateSync(this.logFd, this.#logSize);
      this.#seq = batchSeq;
      this.#last = batchLast;
    } catch (truncateFailure) {
      // The file's end is not what this writer knows: the chain goes on from what the file holds.
      try {
        const head = readLogHead(this.logFd);
        this.#seq = head.seq;
        this.#last = head.last;
        this.#logSize = head.size;
      } catch (error) {
        // Nothing can be chained after a line this writer cannot read back: every later call fails.
        this.#broken = new Error(`The audit log ${this.path} stopped recording: a write failed and its end cannot be read back.`, {
          cause: error ?? truncateFailure,
        });
        this.onError(this.#broken);
      }
    }
    if (this.#checkpointed > this.#seq) this.#checkpointed = this.#seq;
  }

  #flush(): void {
    if (!this.#dirty || this.#closed) return;
    this.#dirty = false;
    fsync(this.logFd, () => {});
  }

  checkpoint(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    const attempt = this.#chain.then(async () => {
      await this.lease.wait();
      this.lease.pin();
      try {
        this.#takeLock();
        // Records queued while the lock was away are written first (their batch may wait for a
        // checkpoint chained after this one, never for this one).
        this.#writePending();
        // Another writer's checkpoint may name this head already (checkpoints only ever move on).
        if (this.#seq <= this.#checkpointed) return;
        const named = { seq: this.#seq, record_sha256: this.#last };
        // A checkpoint only ever names records that are on disk.
        await fsyncAsync(this.logFd);
        this.#checkpointSize = await writeCheckpoint(this.checkpointFd, this.#checkpointSize, named, this.signingKey);
        this.#checkpointed = named.seq;
      } finally {
        this.lease.unpin();
      }
    });
    this.#chain = attempt.catch((error: unknown) => {
      try {
        this.#checkpointSize = fstatSync(this.checkpointFd).size;
      } catch {
        // Re-read at the next taking of the lock.
      }
      this.#failed(error);
    });
    return attempt;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.checkpoint();
    } finally {
      this.#closed = true;
      clearInterval(this.#flushTimer);
      clearInterval(this.#checkpointTimer);
      try {
        fsyncSync(this.logFd);
        fsyncSync(this.checkpointFd);
      } finally {
        this.lease.close();
        closeSync(this.logFd);
        closeSync(this.checkpointFd);
      }
    }
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
function writeText(fd: number, text: string): void {
  const written = writeSync(fd, text);
  const length = Buffer.byteLength(text, 'utf8');
  if (written < length) {
    const bytes = Buffer.from(text, 'utf8');
    let offset = written;
    while (offset < length) offset += writeSync(fd, bytes, offset, length - offset);
  }
}
