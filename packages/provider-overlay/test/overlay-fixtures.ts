import { LibosError, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import type { ProviderFixtures } from '@libos/provider-conformance';
import { locatePath, prefixesOf } from '../src/agent/locate-path.js';
import { overlayContexts } from '../src/open-overlay.js';
import { wholeBytes } from '../src/agent/row-bytes.js';

/** The mode a file the agent made gets when it lands on the lower. */
const NEW_FILE_MODE = 0o644;

/**
 * Fixtures for an overlay provider: they act on the lower, as a person's edits would, after taking
 * out of the overlay whatever would hide that path (the kit's raw writes must show through), and
 * they observe the agent's merged view.
 */
// The kit's fixtures name any path, `.git` ones included (its security groups make them), so they
// are taken as given, as a raw write on the lower would take them.
const asGiven = (path: string): WorkspacePath => (path === '' ? '.' : path) as WorkspacePath;

export function overlayFixtures(provider: FileSystemProviderV1, lower: ProviderFixtures): ProviderFixtures {
  const context = overlayContexts.get(provider);
  if (context === undefined) throw new Error('not an overlay provider');
  const forget = (path: string): void => {
    context.state.write(() => {
      const target = asGiven(path);
      for (const prefix of prefixesOf(target)) {
        if (prefix === target) break;
        const row = context.rows.get(prefix);
        if (row === undefined) continue;
        if (row.kind === 'directory') context.rows.put({ ...row, opaque: 0 });
        else context.rows.remove(prefix);
      }
      if (target !== '.') {
        context.rows.remove(target);
        context.rows.removeBelow(target);
      } else {
        context.state.db.prepare('DELETE FROM entries').run();
        context.state.db.prepare('DELETE FROM segments').run();
      }
    });
  };
  const view = (path: string) => {
    try {
      return locatePath(context.rows, asGiven(path));
    } catch (error) {
      if (LibosError.is(error, 'not_found', 'not_a_directory')) return { at: 'covered' as const };
      throw error;
    }
  };
  return {
    ...lower,
    writeFile: async (path, content) => {
      forget(path);
      await lower.writeFile(path, content);
    },
    makeDirectory: async (path) => {
      forget(path);
      await lower.makeDirectory(path);
    },
    ...(lower.symlink === undefined ? {} : { symlink: async (path: string, target: string) => (forget(path), lower.symlink?.(path, target)) }),
    ...(lower.hardLink === undefined
      ? {}
      : { hardLink: async (existing: string, path: string) => (forget(existing), forget(path), lower.hardLink?.(existing, path)) }),
    ...(lower.fifo === undefined ? {} : { fifo: async (path: string) => (forget(path), lower.fifo?.(path)) }),
    readFile: async (path) => {
      const location = view(path);
      if (location.at === 'lower') return lower.readFile(path);
      if (location.at === 'covered' || location.row.kind !== 'file') return null;
      const row = context.rows.get(location.row.path);
      return row === undefined ? new Uint8Array(0) : wholeBytes(context, row);
    },
    // A row's mode is the lower file it names (docs/overlay.md, "Modes"): its own, a copy's
    // source, or a new file's default.
    ...(lower.modes === undefined
      ? {}
      : {
          modes: {
            get: async (path: string) => {
              const location = view(path);
              const modes = lower.modes as NonNullable<ProviderFixtures['modes']>;
              if (location.at === 'lower') return modes.get(path);
              if (location.at === 'covered' || location.row.kind !== 'file') throw new Error(`no file at ${path} in the agent's view`);
              const { row } = location;
              const modeOf = row.mode_of ?? (row.base_kind === 'file' ? row.path : '');
              // A mode given to writeFile is the row's own: `/` and octal digits.
              if (modeOf.startsWith('/')) return Number.parseInt(modeOf.slice(1), 8);
              return modeOf === '' ? NEW_FILE_MODE : modes.get(modeOf);
            },
            set: (lower.modes as NonNullable<ProviderFixtures['modes']>).set,
          },
        }),
    kindOf: async (path) => {
      const location = view(path);
      if (location.at === 'lower') return lower.kindOf(path);
      if (location.at === 'covered' || location.row.kind === 'whiteout') return 'missing';
      return location.row.kind;
    },
  };
}
