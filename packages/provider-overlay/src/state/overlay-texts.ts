import { sha256Hex } from '../agent/lower-files.js';
import type { OverlayContext } from '../overlay-context.js';

/**
 * The largest file whose bytes the overlay keeps as a merge base (docs/overlay.md, "Merge"): a
 * larger base is not kept, and its file is applied whole or is a conflict, as before merges.
 */
export const MERGE_BASE_MAX_BYTES = 4 << 20;

/** A base the agent's first change read whole: its kind and bytes (`lowerBase` gives them). */
interface ReadBase {
  readonly base_kind: string;
  readonly base_sha256: string | null;
}

/**
 * Keeps the bytes of a file base the agent's first change read (inside the caller's transaction),
 * by hash, so an apply can merge onto a file the person edited since. Only text can be merged:
 * bytes that are not UTF-8 or hold a NUL are not kept.
 */
export function keepBaseText(context: OverlayContext, base: ReadBase): void {
  const bytes = (base as { bytes?: unknown }).bytes;
  if (base.base_kind !== 'file' || base.base_sha256 === null || !(bytes instanceof Uint8Array)) return;
  if (bytes.length > MERGE_BASE_MAX_BYTES || textOf(bytes) === undefined) return;
  keepText(context, bytes, base.base_sha256);
}

/** Keeps `bytes` by their SHA-256 (given, or computed), in the caller's transaction. */
export function keepText(context: OverlayContext, bytes: Uint8Array, sha256 = sha256Hex(bytes)): string {
  context.state.db.prepare('INSERT OR IGNORE INTO texts (sha256, bytes) VALUES (?, ?)').run(sha256, Buffer.from(bytes));
  return sha256;
}

/** The kept bytes whose SHA-256 is `sha256`, checked against it; undefined when none are kept. */
export function keptText(context: OverlayContext, sha256: string | null): Uint8Array | undefined {
  if (sha256 === null) return undefined;
  const row = context.state.db.prepare<[string], { bytes: Buffer }>('SELECT bytes FROM texts WHERE sha256 = ?').get(sha256);
  if (row === undefined || sha256Hex(row.bytes) !== sha256) return undefined;
  return new Uint8Array(row.bytes);
}

/**
 * Forgets kept bytes no row's base names any more, nor an apply still running (its recovery settles
 * merged steps from them), in the caller's transaction. A change an undo brings back after this
 * merges no more: its file is applied whole or is a conflict, as without a kept base.
 */
export function dropUnusedTexts(context: OverlayContext): void {
  context.state.db
    .prepare(
      `DELETE FROM texts WHERE sha256 NOT IN (SELECT base_sha256 FROM entries WHERE base_sha256 IS NOT NULL)
       AND sha256 NOT IN (SELECT json_extract(item.plan, '$.merge.rest_sha256') FROM apply_items AS item
         JOIN applies ON applies.apply_id = item.apply_id WHERE applies.state IN ('running', 'committing'))`,
    )
    .run();
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `bytes` when they are text by the contract's encodings (UTF-8, a BOM kept) and hold no NUL; else undefined. */
export function textOf(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}
