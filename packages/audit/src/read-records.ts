import type { AuditRecord } from './audit-record.js';
import { forEachLine } from './line-reader.js';

/** Which records `readRecords` keeps. */
export interface RecordFilter {
  readonly tool?: string;
  /** A canonical path: records naming it, or a path inside it. */
  readonly path?: string;
  /** Records at or after this time (ISO 8601). */
  readonly since?: string;
}

/** Calls `onRecord` with every record of a log that passes the filter, streaming; a line that is not JSON is skipped. */
export function readRecords(file: string, filter: RecordFilter, onRecord: (record: AuditRecord) => void): void {
  const since = filter.since === undefined ? undefined : Date.parse(filter.since);
  forEachLine(file, (line) => {
    let record: AuditRecord;
    try {
      record = JSON.parse(line.toString('utf8')) as AuditRecord;
    } catch {
      return true;
    }
    if (filter.tool !== undefined && record.tool !== filter.tool) return true;
    if (filter.path !== undefined && !namesPath(record, filter.path)) return true;
    if (since !== undefined && !(Date.parse(record.time) >= since)) return true;
    onRecord(record);
    return true;
  });
}

function namesPath(record: AuditRecord, path: string): boolean {
  const within = (candidate: string) => path === '.' || candidate === path || candidate.startsWith(`${path}/`);
  return (
    (Array.isArray(record.paths) && record.paths.some(within)) ||
    (Array.isArray(record.effects) && record.effects.some((effect) => within(effect.path)))
  );
}
