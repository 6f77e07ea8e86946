import { fstatSync, fsync, fsyncSync, ftruncateSync, closeSync } from 'node:fs';
import { promisify } from 'node:util';
import type { KeyObject } from 'node:crypto';
import type { AuditEntry } from './audit-record.js';
import { writeCheckpoint } from './checkpoint-line.js';
import { LineEncoder } from './line-encoder.js';
import { writeWhole } from './log-files.js';
import { followLogHead, readCheckpointedSeq, readLogHead, type LogHead } from './log-head.js';
import type { RecordWriter, WriterTiming } from './record-writer.js';
import type { WriterLease } from './writer-lock.js';

const fsyncAsync = promisify(fsync);

// A class: its methods are shared, and `append` (run per call) allocates only what a batch needs.
export class LogWriter implements RecordWriter {
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
  readonly #lines = new LineEncoder();
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
    const encoded = this.#lines.encode(entries, this.#seq, this.#last);
    this.#seq = encoded.seq;
    this.#last = encoded.last;
    const { bytes, length } = encoded;
    try {
      writeWhole(this.logFd, bytes, length);
      this.#logSize += length;
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
    // Nothing of this writer's since its last checkpoint: another writer's records are its own to name.
    if (this.#seq <= this.#checkpointed && this.#pending.length === 0) return this.#chain;
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
