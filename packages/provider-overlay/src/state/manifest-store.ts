import type { RecordedBase } from '../agent/probe-path.js';
import type { OverlayContext } from '../overlay-context.js';
import { keepBaseText } from './overlay-texts.js';

/**
 * Stores a base's directory manifest (inside the caller's transaction) and returns the base with
 * its `manifest_id`; a base without a new manifest comes back as it is.
 */
export function lowerManifestStore(context: OverlayContext, base: RecordedBase): RecordedBase {
  keepBaseText(context, base);
  if (base.manifest === undefined) return stripBytes(base);
  const { db } = context.state;
  const next = (db.prepare('SELECT coalesce(max(manifest_id), 0) + 1 AS id FROM manifests').get() as { id: number }).id;
  const insert = db.prepare('INSERT INTO manifests (manifest_id, path, kind, sha256, size) VALUES (?, ?, ?, ?, ?)');
  for (const entry of base.manifest) insert.run(next, entry.path, entry.kind, entry.sha256, entry.size);
  // A marker row, so an empty directory's manifest still exists under its id.
  insert.run(next, '', 'directory', null, null);
  return { base_kind: base.base_kind, base_sha256: null, base_size: null, base_files: base.base_files, manifest_id: next };
}

function stripBytes(base: RecordedBase): RecordedBase {
  return {
    base_kind: base.base_kind,
    base_sha256: base.base_sha256,
    base_size: base.base_size,
    base_files: base.base_files,
    manifest_id: base.manifest_id,
  };
}

/** The manifest stored under `id`, in path order, without its marker row. */
export function readManifest(context: OverlayContext, id: number): Array<{ path: string; kind: string; sha256: string | null; size: number | null }> {
  return context.state.db
    .prepare<[number], { path: string; kind: string; sha256: string | null; size: number | null }>(
      "SELECT path, kind, sha256, size FROM manifests WHERE manifest_id = ? AND path != '' ORDER BY path",
    )
    .all(id);
}
