import { existsSync, statSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import type { AuditCheckpoint } from './audit-record.js';
import { checkCheckpointSignature, toPublicKey } from './checkpoint-signature.js';
import { forEachLine } from './line-reader.js';
import { GENESIS, sha256Hex } from './sha256.js';

/** Why a log failed verification (docs/audit.md). */
export type VerifyFailureReason = 'malformed' | 'hash_mismatch' | 'gap' | 'reordered' | 'duplicate' | 'truncated' | 'bad_signature';

/** What `verify` found. */
export type VerifyResult =
  | { readonly ok: true; readonly records: number; readonly checkpoints: number; readonly last_seq: number }
  | { readonly ok: false; readonly first_bad_seq: number; readonly reason: VerifyFailureReason };

/** Options of `verify`. */
export interface VerifyOptions {
  /** The Ed25519 public key (KeyObject or PEM) whose signature every checkpoint must carry. */
  readonly publicKey?: KeyObject | string;
}

// How far past a jump in seq to look for the missing record before calling it a gap, not a reorder.
const REORDER_WINDOW = 10_000;

/**
 * Checks a log and its `FILE.checkpoints`, streaming (memory bounded by one read chunk and the
 * checkpoints): every line a record with the next seq and the SHA-256 of the line before it as
 * `prev`, every checkpoint naming the record it says (and signed by `publicKey` when given), no
 * fewer records than the last checkpoint names, and with `publicKey` a signed checkpoint at or
 * after every session's end. Throws when the file cannot be read.
 */
export function verify(file: string, options: VerifyOptions = {}): VerifyResult {
  const publicKey = options.publicKey === undefined ? undefined : toPublicKey(options.publicKey);
  // A missing or unreadable log is an error to report, not a verdict on its records.
  if (!statSync(file).isFile()) throw new TypeError(`${file} is not a file.`);
  const checkpointsFile = `${file}.checkpoints`;
  const checkpoints: AuditCheckpoint[] = [];
  let checkpointFailure: VerifyResult | undefined;
  if (existsSync(checkpointsFile)) {
    const readCheckpoints = forEachLine(checkpointsFile, (line) => {
      const checkpoint = parseCheckpoint(line);
      const previous = checkpoints.at(-1)?.seq ?? 0;
      if (checkpoint === undefined) checkpointFailure = { ok: false, first_bad_seq: previous + 1, reason: 'malformed' };
      else if (checkpoint.seq <= previous) checkpointFailure = { ok: false, first_bad_seq: checkpoint.seq, reason: 'reordered' };
      else if (
        publicKey !== undefined &&
        (checkpoint.signature === null || !checkCheckpointSignature(publicKey, checkpoint.seq, checkpoint.record_sha256, checkpoint.signature))
      ) {
        checkpointFailure = { ok: false, first_bad_seq: checkpoint.seq, reason: 'bad_signature' };
      } else checkpoints.push(checkpoint);
      return checkpointFailure === undefined;
    });
    if (checkpointFailure === undefined && !readCheckpoints.complete) {
      checkpointFailure = { ok: false, first_bad_seq: (checkpoints.at(-1)?.seq ?? 0) + 1, reason: 'malformed' };
    }
  }
  if (checkpointFailure !== undefined) return checkpointFailure;

  let expected = 1;
  let prev = GENESIS;
  let failure: VerifyResult | undefined;
  let nextCheckpoint = 0;
  // A jump in seq: a gap, unless the missing record turns up soon after (a reorder).
  let jump: { missing: number; looked: number } | undefined;
  let readLog: { complete: boolean };
  let lastLine: Buffer | undefined;
  // With a key: the last session end, which a signed checkpoint must cover (the writer makes one at every end).
  let lastSessionEnd = 0;
  try {
    readLog = forEachLine(file, (line) => {
      const seq = seqOf(line);
      if (jump !== undefined) {
        if (seq === jump.missing) {
          failure = { ok: false, first_bad_seq: jump.missing, reason: 'reordered' };
          return false;
        }
        jump.looked += 1;
        if (jump.looked < REORDER_WINDOW) return true;
        failure = { ok: false, first_bad_seq: jump.missing, reason: 'gap' };
        return false;
      }
      if (seq === undefined) {
        failure = { ok: false, first_bad_seq: expected, reason: 'malformed' };
        return false;
      }
      if (seq !== expected) {
        if (seq < expected) {
          failure = { ok: false, first_bad_seq: seq, reason: 'duplicate' };
          return false;
        }
        jump = { missing: expected, looked: 0 };
        return true;
      }
      // The chain vouches for every line's bytes, so a full parse is kept for the last line (below),
      // which nothing after it vouches for; the others are read only for their seq and prev.
      const linked = prevOf(line);
      if (linked === undefined || line[0] !== OPEN_BRACE || line[line.length - 1] !== CLOSE_BRACE) {
        failure = { ok: false, first_bad_seq: seq, reason: 'malformed' };
        return false;
      }
      lastLine = line;
      if (linked !== prev) {
        // The line before changed (or this one's prev did): the earlier record is the first in doubt.
        failure = { ok: false, first_bad_seq: Math.max(1, seq - 1), reason: 'hash_mismatch' };
        return false;
      }
      prev = sha256Hex(line);
      const checkpoint = checkpoints[nextCheckpoint];
      if (checkpoint !== undefined && checkpoint.seq === seq) {
        nextCheckpoint += 1;
        if (checkpoint.record_sha256 !== prev) {
          failure = { ok: false, first_bad_seq: seq, reason: 'hash_mismatch' };
          return false;
        }
      }
      if (publicKey !== undefined && isSessionEnd(line)) lastSessionEnd = seq;
      expected = seq + 1;
      return true;
    });
  } catch (error) {
    // Only a line too long to be a record ends the read early; anything else is the host's.
    if (!(error instanceof RangeError)) throw error;
    return { ok: false, first_bad_seq: expected, reason: 'malformed' };
  }
  if (failure !== undefined) return failure;
  if (jump !== undefined) return { ok: false, first_bad_seq: jump.missing, reason: 'gap' };
  if (lastLine !== undefined && parseRecord(lastLine) === undefined) return { ok: false, first_bad_seq: expected - 1, reason: 'malformed' };
  const lastSeq = expected - 1;
  const lastCheckpoint = checkpoints.at(-1);
  if (lastCheckpoint !== undefined && lastCheckpoint.seq > lastSeq) return { ok: false, first_bad_seq: lastSeq + 1, reason: 'truncated' };
  // A session that ended has a signed checkpoint at or after its end: without one, the log or its
  // checkpoints were cut (or replaced by older ones), and what followed the last signature may be forged.
  const covered = lastCheckpoint?.seq ?? 0;
  if (lastSessionEnd > covered) return { ok: false, first_bad_seq: covered + 1, reason: 'truncated' };
  if (!readLog.complete) return { ok: false, first_bad_seq: expected, reason: 'malformed' };
  return { ok: true, records: lastSeq, checkpoints: checkpoints.length, last_seq: lastSeq };
}

const HEX64 = /^[0-9a-f]{64}$/;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const PREV_KEY = Buffer.from(',"prev":"');
const SEQ_KEY = Buffer.from(',"seq":');
const SESSION_END_TAIL = Buffer.from(',"tool":"session_end"}');
const NO_PROCESS = Buffer.from(',"process":null,"result":');

// Canonical JSON escapes every quote inside a string, so this key can only be the record's own.
function prevOf(line: Buffer): string | undefined {
  const at = line.indexOf(PREV_KEY);
  if (at === -1) return undefined;
  const start = at + PREV_KEY.length;
  if (line[start + 64] !== 0x22) return undefined;
  return line.toString('latin1', start, start + 64);
}

// `tool` is the last key of a canonical record, and a session record has no process (a call named
// "session_end" by an agent has one): found without a parse, as quotes inside strings are escaped.
function isSessionEnd(line: Buffer): boolean {
  return (
    line.length > SESSION_END_TAIL.length &&
    line.subarray(line.length - SESSION_END_TAIL.length).equals(SESSION_END_TAIL) &&
    line.includes(NO_PROCESS)
  );
}

// Reads only what the chain needs; `prev` is the one field checked beyond being a record.
function parseRecord(line: Buffer): { prev: string } | undefined {
  try {
    const record = JSON.parse(line.toString('utf8')) as Record<string, unknown>;
    if (typeof record !== 'object' || record === null || typeof record.prev !== 'string' || !HEX64.test(record.prev)) return undefined;
    if (typeof record.session !== 'string' || typeof record.time !== 'string' || typeof record.result !== 'object' || record.result === null)
      return undefined;
    return { prev: record.prev };
  } catch {
    return undefined;
  }
}

// Records are canonical JSON, so `seq` sits between `result` and `session`: found without a parse.
function seqOf(line: Buffer): number | undefined {
  const at = line.lastIndexOf(SEQ_KEY);
  if (at === -1) return undefined;
  let value = 0;
  let index = at + 7;
  for (; index < line.length && line[index]! >= 0x30 && line[index]! <= 0x39; index += 1) value = value * 10 + line[index]! - 0x30;
  if (index === at + 7 || line[index] !== 0x2c || !Number.isSafeInteger(value)) return undefined;
  return value;
}

function parseCheckpoint(line: Buffer): AuditCheckpoint | undefined {
  try {
    const checkpoint = JSON.parse(line.toString('utf8')) as Partial<AuditCheckpoint>;
    if (!Number.isSafeInteger(checkpoint.seq) || (checkpoint.seq as number) < 1) return undefined;
    if (typeof checkpoint.record_sha256 !== 'string' || !HEX64.test(checkpoint.record_sha256) || typeof checkpoint.time !== 'string')
      return undefined;
    if (checkpoint.signature !== null && typeof checkpoint.signature !== 'string') return undefined;
    return checkpoint as AuditCheckpoint;
  } catch {
    return undefined;
  }
}
