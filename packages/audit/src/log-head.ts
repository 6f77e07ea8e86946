import { fstatSync, ftruncateSync } from 'node:fs';
import type { AuditCheckpoint, AuditRecord } from './audit-record.js';
import { forEachLine } from './line-reader.js';
import { lastLineOf } from './read-tail.js';
import { GENESIS, sha256Hex } from './sha256.js';

// No record comes near this; a longer last line means the file is not a log.
export const MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** Where a log's chain stands: the last record's seq and the SHA-256 of its line, and the file's size. */
export interface LogHead {
  readonly seq: number;
  readonly last: string;
  readonly size: number;
}

/** The head of an open log (a torn last line cut off first); throws when its last line is not a record. */
export function readLogHead(fd: number): LogHead {
  const tail = lastLineOf(fd, MAX_RECORD_BYTES);
  const size = fstatSync(fd).size;
  if (tail === undefined) return { seq: 0, last: GENESIS, size };
  const record = JSON.parse(tail.toString('utf8')) as Partial<AuditRecord>;
  if (!Number.isSafeInteger(record.seq) || (record.seq as number) < 1) throw new Error('The last line of the log is not a record.');
  return { seq: record.seq as number, last: sha256Hex(tail), size };
}

/** The seq the last checkpoint of an open checkpoints file names (0 for none). */
export function readCheckpointedSeq(fd: number): number {
  const tail = lastLineOf(fd, MAX_RECORD_BYTES);
  return tail === undefined ? 0 : (JSON.parse(tail.toString('utf8')) as AuditCheckpoint).seq;
}

/**
 * The head of a log another writer appended to since this one's `known` head, read under the
 * lock: the lines after `known.size` are followed one by one, each checked to carry the next seq
 * and the SHA-256 of the line before it, so the chain stays one sequence. A torn last line (a
 * writer killed mid-write, whose calls were never answered) is cut off, as at opening. `chained`
 * is false when the new lines do not continue the chain (or the file shrank): the head is then the
 * file's last record, and what happened is for `verify` to say.
 */
export function followLogHead(path: string, fd: number, known: LogHead): LogHead & { readonly chained: boolean } {
  const size = fstatSync(fd).size;
  if (size < known.size) return { ...readLogHead(fd), chained: false };
  let { seq, last } = known;
  let end = known.size;
  let chained = true;
  const { complete } = forEachLine(
    path,
    (line) => {
      end += line.length + 1;
      if (!chained) return true;
      let record: Partial<AuditRecord>;
      try {
        record = JSON.parse(line.toString('utf8')) as Partial<AuditRecord>;
      } catch {
        chained = false;
        return true;
      }
      if (record.seq !== seq + 1 || record.prev !== last) chained = false;
      else {
        seq = record.seq;
        last = sha256Hex(line);
      }
      return true;
    },
    known.size,
  );
  if (!complete) ftruncateSync(fd, end);
  if (!chained) return { ...readLogHead(fd), chained };
  return { seq, last, size: end, chained };
}
