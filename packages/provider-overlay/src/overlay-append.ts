import { checkSignal, providerErrors, type AppendFileOptions, type FileAppend, type WorkspacePath } from '@libos/core';
import { lowerManifestStore } from './manifest-store.js';
import { putParents, refuseLowerRules, toolOf } from './overlay-mutations.js';
import { mutate, type OverlayContext } from './overlay-context.js';
import { MISSING_BASE, baseOfRow, fileRow, lowerBase, probePath, type RecordedBase } from './probe-path.js';

/**
 * `appendFile` in the agent's view: the file's row becomes its bytes followed by the new ones.
 * The overlay keeps a changed file whole in one row, so the first append to a lower file reads
 * that file once (one `readFile` of its size: one consistent snapshot, whose hash is the base) and
 * briefly holds it twice, as read and as the new row; later appends read the row (docs/overlay.md,
 * "Append and copy"). The size check, the empty-file prefix and the write are decided in the one
 * transaction that commits them, against what the probe saw.
 */
export function overlayAppendFile(context: OverlayContext, path: WorkspacePath, bytes: Uint8Array, options: AppendFileOptions): Promise<FileAppend> {
  const added = new Uint8Array(bytes);
  const prefix = options.emptyFilePrefix === undefined ? new Uint8Array(0) : new Uint8Array(options.emptyFilePrefix);
  return mutate(
    context,
    path,
    toolOf(options, 'appendFile'),
    async () => {
      checkSignal(options.signal, path);
      refuseLowerRules(context, path);
      const probe = await probePath(context, path, options.signal);
      if (probe.kind === 'directory' || probe.kind === 'other') throw providerErrors.notAFile(path, probe.kind);
      if (probe.kind === 'symlink') throw providerErrors.symlinkRefused(path);
      const expected = options.expectedSizeBytes;
      if (probe.kind === 'missing') {
        if (!options.create) throw providerErrors.notFound(path, probe.firstMissing);
        if (expected !== undefined && expected !== 0) throw providerErrors.sizeConflict(path, expected, null);
        checkSignal(options.signal, path);
        return { probe, base: probe.row === undefined ? MISSING_BASE : baseOfRow(probe.row), old: new Uint8Array(0) as Uint8Array, created: true };
      }
      // The lower's own read refuses a hard-linked file, as its append would.
      const base: RecordedBase & { bytes?: Uint8Array } =
        probe.row === undefined ? await lowerBase(context, probe, options.signal) : baseOfRow(probe.row);
      const old = probe.row?.content ?? base.bytes;
      if (old === undefined || old === null) throw providerErrors.failure(path, null, { effect: 'none' });
      if (expected !== undefined && expected !== old.length) throw providerErrors.sizeConflict(path, expected, old.length);
      checkSignal(options.signal, path);
      return { probe, base, old, created: false };
    },
    ({ probe, base, old, created }, begin) => {
      const head = old.length === 0 ? prefix : new Uint8Array(0);
      const whole = new Uint8Array(old.length + head.length + added.length);
      whole.set(old, 0);
      whole.set(head, old.length);
      whole.set(added, old.length + head.length);
      const at = context.now();
      const editor = begin([path]);
      putParents(context, editor, probe, at);
      const row = fileRow(path, whole, lowerManifestStore(context, base), at, probe.row?.mode_of ?? null);
      if (probe.row?.kind === 'file') editor.extend(row, probe.row);
      else editor.put(row);
      return { bytesAppended: head.length + added.length, sizeBytes: whole.length, created };
    },
  );
}
