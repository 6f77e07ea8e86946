import type { Grant } from '@libos/core';
import type { AuditEffect, AuditEntry, AuditRecordDecision } from './audit-record.js';
import { canonicalJson, canonicalString } from './canonical-json.js';

const LENIENT = { loneSurrogates: 'escape' } as const;

// A string a caller named that holds a lone surrogate is escaped, never refused: every call gets
// its record. A missing value is written as null, so a record keeps every key.
const text = (value: unknown): string =>
  typeof value === 'string' ? canonicalString(value, false) : value === null || value === undefined ? 'null' : canonicalJson(value, LENIENT);

// A count no provider should report (NaN, an infinity) is written as null rather than lose the record.
const count = (value: unknown): string => (typeof value === 'number' ? (Number.isFinite(value) ? String(value) : 'null') : text(value));

/**
 * The canonical JSON (RFC 8785) of one record, written field by field in key order: one record per
 * call makes this the audit's hot path, and the record's shape is known, so only a value of an
 * unexpected type goes through the general canonicalizer. The same text as
 * `canonicalJson({...entry, seq, prev})` for every record of the documented shape (a test holds it
 * to that); of an effect, only the keys a record defines are written.
 */
export function recordLine(entry: AuditEntry, seq: number, prev: string): string {
  const { result, client } = entry;
  const outcome = result.ok ? '{"ok":true}' : `{"code":${text(result.code)},"effect":${text(result.effect)},"ok":false}`;
  return (
    `{"arguments_sha256":${text(entry.arguments_sha256)},` +
    `"client":${client === null ? 'null' : `{"name":${text(client.name)},"version":${text(client.version)}}`},` +
    `"decision":${decisionText(entry.decision)},"duration_ms":${count(entry.duration_ms)},"effects":${effectsText(entry.effects)},` +
    `"paths":${pathsText(entry.paths)},"prev":${text(prev)},"process":${text(entry.process)},"result":${outcome},"seq":${seq},` +
    `"session":${text(entry.session)},"time":${text(entry.time)},"tool":${text(entry.tool)}}`
  );
}

function pathsText(paths: readonly string[]): string {
  if (paths.length === 0) return '[]';
  let joined = '[';
  for (let index = 0; index < paths.length; index += 1) joined += `${index === 0 ? '' : ','}${text(paths[index])}`;
  return `${joined}]`;
}

function effectsText(effects: readonly AuditEffect[]): string {
  if (effects.length === 0) return '[]';
  let joined = '[';
  for (let index = 0; index < effects.length; index += 1) {
    const effect = effects[index]!;
    joined +=
      `${index === 0 ? '' : ','}{"after_sha256":${text(effect.after_sha256)},"before_sha256":${text(effect.before_sha256)},` +
      `"path":${text(effect.path)},"size_bytes":${count(effect.size_bytes)}}`;
  }
  return `${joined}]`;
}

function decisionText(decision: AuditRecordDecision | null): string {
  if (decision === null) return 'null';
  const { approval } = decision;
  const asked = approval === undefined ? '' : `"approval":{"answer":${text(approval.answer)},"shown_sha256":${text(approval.shown_sha256)}},`;
  return `{${asked}"outcome":${text(decision.outcome)},"rule":${ruleText(decision.rule)}}`;
}

const GRANT_KEYS: ReadonlySet<string> = new Set(['mode', 'path', 'rights', 'tree', 'uses']);

// A grant as the config wrote it; anything not shaped like one goes through the general canonicalizer whole.
function ruleText(rule: Grant | null): string {
  if (rule === null || rule === undefined) return 'null';
  const { mode, path, rights, tree, uses } = rule;
  const shaped =
    typeof mode === 'string' &&
    typeof path === 'string' &&
    typeof tree === 'boolean' &&
    Array.isArray(rights) &&
    (uses === undefined || (typeof uses === 'number' && Number.isFinite(uses))) &&
    Object.keys(rule).every((key) => GRANT_KEYS.has(key));
  if (!shaped) return canonicalJson(rule, LENIENT);
  let granted = '[';
  for (let index = 0; index < rights.length; index += 1) granted += `${index === 0 ? '' : ','}${text(rights[index] ?? null)}`;
  return `{"mode":${text(mode)},"path":${text(path)},"rights":${granted}],"tree":${tree}${uses === undefined ? '' : `,"uses":${uses}`}}`;
}
