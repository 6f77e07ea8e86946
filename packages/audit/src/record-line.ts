import type { AuditEntry } from './audit-record.js';
import { canonicalJson, canonicalString } from './canonical-json.js';

const LENIENT = { loneSurrogates: 'escape' } as const;

const text = (value: string | null) => (value === null ? 'null' : canonicalString(value, false));
const nested = (value: unknown) => (value === null ? 'null' : canonicalJson(value, LENIENT));

/**
 * The canonical JSON of one record, written field by field in RFC 8785 key order (the keys are
 * known, so only the nested values need the general canonicalizer): one record per call makes this
 * the audit's hot path. A string a caller named that holds a lone surrogate is escaped, never
 * refused, so every call gets its record.
 */
export function recordLine(entry: AuditEntry, seq: number, prev: string): string {
  const { result } = entry;
  const paths = entry.paths.length === 0 ? '[]' : `[${entry.paths.map((path) => canonicalString(path, false)).join(',')}]`;
  const outcome = result.ok ? '{"ok":true}' : `{"code":${text(result.code)},"effect":${text(result.effect)},"ok":false}`;
  return (
    `{"arguments_sha256":${text(entry.arguments_sha256)},"client":${nested(entry.client)},"decision":${nested(entry.decision)},` +
    `"duration_ms":${canonicalJson(entry.duration_ms)},"effects":${entry.effects.length === 0 ? '[]' : nested(entry.effects)},` +
    `"paths":${paths},"prev":${text(prev)},"process":${text(entry.process)},"result":${outcome},"seq":${seq},` +
    `"session":${text(entry.session)},"time":${text(entry.time)},"tool":${text(entry.tool)}}`
  );
}
