import { providerErrors, type AppendFileOptions, type FileAppend, type WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import type { RowHead } from '../state/entry-rows.js';
import { lowerManifestStore } from '../state/manifest-store.js';
import { putParents, refuseLowerRules, labelOf } from './overlay-mutations.js';
import { mutate, type OverlayContext } from '../overlay-context.js';
import { MISSING_BASE, baseOfRow, fileRow, probePath, type Probe, type RecordedBase } from './probe-path.js';
import { finish, hashLowerFile, hashStateOf, hasherFrom, type CarriedHash } from './row-bytes.js';

/** What an append observed: where the file's bytes are, its size, and the hash carried on over them. */
type Observed =
  | { readonly at: 'new'; readonly probe: Probe; readonly base: RecordedBase }
  | { readonly at: 'row'; readonly probe: Probe; readonly row: RowHead; readonly size: number; readonly carried: CarriedHash }
  | { readonly at: 'lower'; readonly probe: Probe; readonly base: RecordedBase; readonly size: number; readonly carried: CarriedHash };

/**
 * `appendFile` in the agent's view, costing what it appends (docs/overlay.md, "Append and copy"):
 * the appended bytes become one more segment of the file's row and the row's SHA-256 is carried on
 * from the state saved with it, so a file already changed is neither read nor rewritten. The first
 * append to an unchanged lower file streams that file once, a step at a time, to record its hash as
 * the base, and leaves it on the lower: the row holds only what was appended. The size check, the
 * empty-file prefix and the write are decided in the one transaction that commits them, against
 * what the probe saw.
 */
export function overlayAppendFile(context: OverlayContext, path: WorkspacePath, bytes: Uint8Array, options: AppendFileOptions): Promise<FileAppend> {
  const added = new Uint8Array(bytes);
  const prefix = options.emptyFilePrefix === undefined ? new Uint8Array(0) : new Uint8Array(options.emptyFilePrefix);
  return mutate(
    context,
    path,
    labelOf(options, 'appendFile'),
    async () => {
      const observed = await observe(context, path, options);
      const size = observed.at === 'new' ? 0 : observed.size;
      // A byte-order mark only for an empty or new file, decided against what was observed.
      const tail = Buffer.concat([size === 0 ? prefix : new Uint8Array(0), added]);
      const hasher = await hasherFrom(observed.at === 'new' ? null : observed.carried.state);
      hasher.update(tail);
      checkSignal(options.signal, path);
      return { observed, tail, after: finish(hasher) };
    },
    ({ observed, tail, after }, begin) => {
      const at = context.now();
      const editor = begin([path]);
      putParents(context, editor, observed.probe, at);
      if (observed.at === 'row') {
        const size = observed.size + tail.length;
        editor.append(observed.row, { ...observed.row, sha256: after.sha256, size, hash_state: after.state, modified_at: at }, tail);
        return { bytesAppended: tail.length, sizeBytes: size, created: false };
      }
      const lowerBytes = observed.at === 'lower' ? observed.size : 0;
      const row = fileRow(
        path,
        tail,
        lowerManifestStore(context, observed.base),
        at,
        observed.probe.row?.mode_of ?? null,
        observed.probe.row?.moved_from ?? null,
      );
      editor.put({ ...row, sha256: after.sha256, size: lowerBytes + tail.length, lower_bytes: lowerBytes, hash_state: after.state });
      return { bytesAppended: tail.length, sizeBytes: lowerBytes + tail.length, created: observed.at === 'new' };
    },
  );
}

async function observe(context: OverlayContext, path: WorkspacePath, options: AppendFileOptions): Promise<Observed> {
  checkSignal(options.signal, path);
  refuseLowerRules(context, path);
  const probe = await probePath(context, path, options.signal);
  if (probe.kind === 'directory' || probe.kind === 'other') throw providerErrors.notAFile(path, probe.kind);
  if (probe.kind === 'symlink') throw providerErrors.symlinkRefused(path);
  const expected = options.expectedSizeBytes;
  if (probe.kind === 'missing') {
    if (!options.create) throw providerErrors.notFound(path, probe.firstMissing);
    if (expected !== undefined && expected !== 0) throw providerErrors.sizeConflict(path, expected, null);
    return { at: 'new', probe, base: probe.row === undefined ? MISSING_BASE : baseOfRow(probe.row) };
  }
  if (probe.row !== undefined) {
    const size = probe.row.size ?? 0;
    if (expected !== undefined && expected !== size) throw providerErrors.sizeConflict(path, expected, size);
    return { at: 'row', probe, row: probe.row, size, carried: await hashStateOf(context, probe.row, options.signal) };
  }
  // An unchanged lower file: streamed once through the lower's own reads (which refuse a hard-linked
  // file, as its append would), its hash the base and the start of the row's.
  const hasher = await hasherFrom(null);
  const size = await hashLowerFile(context, path, (data) => hasher.update(data), options.signal);
  if (expected !== undefined && expected !== size) throw providerErrors.sizeConflict(path, expected, size);
  const carried = finish(hasher);
  const base: RecordedBase = { base_kind: 'file', base_sha256: carried.sha256, base_size: size, base_files: null, manifest_id: null };
  return { at: 'lower', probe, base, size, carried };
}
