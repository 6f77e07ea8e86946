import { LibosError, providerErrors } from '@libos/core';
import type { DirectoryEntry, WorkspacePath } from '@libos/core';
import { broken, insteadOf, isLink, prefix, rewrap, turn, type BrokenCase } from './broken-provider.js';

/** Each wrong provider, and case ids it must fail; `passes` lists ids it must still pass, where that shows precision. */
export const brokenProviders: readonly BrokenCase[] = [
  {
    name: 'renames over an existing name when overwrite is false',
    factory: broken((inner, volume, at) => ({
      rename: async (from, to, options) => {
        // The plain volume rename, which replaces whatever is at `to` and follows nothing else.
        if (options.overwrite || volume.existsSync(at(to)) === false) return inner.rename!(from, to, options);
        volume.unlinkSync(at(to));
        volume.renameSync(at(from), at(to));
        return { replaced: true };
      },
    })),
    fails: ['rename > overwrite false refuses an existing file, overwrite true replaces it'],
    passes: ['rename > moves a file to a new name, creating missing parents'],
  },
  {
    name: 'follows a symlink in a middle component',
    factory: broken((inner, volume, at) => ({
      // memfs follows intermediate links, so the raw calls go straight through them.
      readFile: (path, options) =>
        insteadOf(
          'symlink_refused',
          () => inner.readFile(path, options),
          () => {
            if (isLink(volume, at(path))) throw providerErrors.symlinkRefused(path);
            return prefix(new Uint8Array(volume.readFileSync(at(path)) as Uint8Array), options.maxBytes);
          },
        ),
      writeFile: (path, bytes, options) =>
        insteadOf(
          'symlink_refused',
          () => inner.writeFile(path, bytes, options),
          () => (volume.writeFileSync(at(path), bytes), { created: true }),
        ),
      deleteFile: (path, options) =>
        insteadOf(
          'symlink_refused',
          () => inner.deleteFile(path, options),
          () => (volume.unlinkSync(at(path)), { deleted: true }),
        ),
    })),
    fails: [
      'symlinks > readFile on a link to a directory inside as a middle component -> symlink_refused',
      'symlinks > readFile on a link to a directory inside as a root child parent -> symlink_refused',
      'symlinks > writeFile on a link to a directory outside as a middle component -> symlink_refused',
      'symlinks > deleteFile on a link to a directory inside as a root child parent -> symlink_refused',
    ],
    passes: ['symlinks > readFile on a link to a file outside as a root child -> symlink_refused'],
  },
  {
    name: 'follows a symlink as the last component on read',
    factory: broken((inner, volume, at) => ({
      readFile: async (path, options) =>
        isLink(volume, at(path))
          ? prefix(new Uint8Array(volume.readFileSync(at(path)) as Uint8Array), options.maxBytes)
          : inner.readFile(path, options),
    })),
    fails: [
      'symlinks > readFile on a link to a file outside as a root child -> symlink_refused',
      'symlinks > readFile on a link to a file inside as a nested target -> symlink_refused',
    ],
  },
  {
    name: 'ignores hard links',
    factory: broken((inner, volume, at) => ({
      readFile: (path, options) =>
        insteadOf(
          'hard_link_refused',
          () => inner.readFile(path, options),
          () => prefix(new Uint8Array(volume.readFileSync(at(path)) as Uint8Array), options.maxBytes),
        ),
      writeFile: (path, bytes, options) =>
        insteadOf(
          'hard_link_refused',
          () => inner.writeFile(path, bytes, options),
          () => (volume.writeFileSync(at(path), bytes), { created: false }),
        ),
      deleteFile: (path, options) =>
        insteadOf(
          'hard_link_refused',
          () => inner.deleteFile(path, options),
          () => (volume.unlinkSync(at(path)), { deleted: true }),
        ),
    })),
    fails: [
      'hard links > readFile on a hard-linked file -> hard_link_refused',
      'hard links > writeFile on a file hard-linked from outside -> hard_link_refused',
      'hard links > deleteFile on a hard-linked file in another directory -> hard_link_refused',
    ],
  },
  {
    name: 'lists in UTF-16 code unit order',
    factory: broken((inner) => ({
      listDirectory: async (path, options) => {
        const all = await inner.listDirectory(path, { limit: 100_000 });
        const sorted = [...all.entries].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
        return { entries: sorted.slice(0, options.limit), truncated: sorted.length > options.limit };
      },
    })),
    fails: [
      'listing > names sort by code point, astral after every BMP name',
      'listing > limit keeps the smallest names in code-point order and sets truncated',
    ],
    passes: ['listing > a limit equal to the count is not truncated'],
  },
  {
    name: 'ignores limit',
    factory: broken((inner) => ({
      listDirectory: async (path) => ({ entries: (await inner.listDirectory(path, { limit: 100_000 })).entries, truncated: false }),
    })),
    fails: [
      'listing > limit keeps the smallest names in code-point order and sets truncated',
      'listing > limit 1 returns the smallest name',
      'listing > a small limit over many entries returns exactly limit entries',
    ],
  },
  {
    name: 'lists links as files',
    factory: broken((inner) => ({
      listDirectory: async (path, options) => {
        const listing = await inner.listDirectory(path, options);
        const entries = listing.entries.map((entry): DirectoryEntry => (entry.kind === 'symlink' ? { ...entry, kind: 'file', sizeBytes: 0 } : entry));
        return { ...listing, entries };
      },
    })),
    fails: ['symlinks > listing shows every link as kind symlink without following it'],
  },
  {
    name: 'writes in place, not atomically',
    factory: broken((inner) => ({
      writeFile: async (path, bytes, options) => {
        const first = await inner.writeFile(path, bytes.subarray(0, bytes.length >> 1), options);
        await turn();
        await inner.writeFile(path, bytes, { overwrite: true });
        return first;
      },
    })),
    fails: ['atomic replace > concurrent readers see only the old or the new bytes'],
    passes: ['writing > creates a file and reports created'],
  },
  {
    name: 'ignores expectedSha256',
    factory: broken((inner) => ({
      writeFile: (path, bytes, options) => inner.writeFile(path, bytes, { overwrite: options.overwrite }),
    })),
    fails: [
      'writing > a failed expectedSha256 leaves the bytes',
      'errors > writeFile expectedSha256 of other bytes on a file -> content_conflict',
      'errors > writeFile expectedSha256:missing on a file -> content_conflict',
      'errors > writeFile expectedSha256 of the old bytes on missing -> content_conflict',
    ],
  },
  {
    name: 'decides overwrite:false by a check before the write',
    factory: broken((inner) => ({
      writeFile: async (path, bytes, options) => {
        const kind = await inner.stat(path).then(
          (status) => status.kind,
          () => 'missing',
        );
        if (!options.overwrite && kind !== 'missing') throw providerErrors.alreadyExists(path);
        await turn();
        return inner.writeFile(path, bytes, { overwrite: true });
      },
    })),
    fails: ['exclusive create > racing creators with overwrite:false: exactly one wins and its bytes stay'],
  },
  {
    name: 'deletes a tree recursively without looking for .git',
    factory: broken((inner, volume, at) => ({
      deleteDirectory: async (path, options) => {
        if (!options.recursive || (await inner.stat(path)).kind !== 'directory') return inner.deleteDirectory(path, options);
        volume.rmSync(at(path), { recursive: true });
        return { deleted: true };
      },
    })),
    fails: [
      '.git > recursive delete refuses a tree holding .git as a directory directly inside',
      '.git > recursive delete refuses a tree holding .git as a file three levels down',
    ],
    passes: ['deleting directories > recursive deletes a root-level tree, .gitignore and .github included'],
  },
  {
    name: 'knows only the exact .git spelling in a recursive delete',
    factory: broken((inner, volume, at) => ({
      deleteDirectory: async (path, options) => {
        if (!options.recursive || (await inner.stat(path)).kind !== 'directory') return inner.deleteDirectory(path, options);
        // The first `.git` spelled exactly, as a workspace path, or undefined.
        const findGit = (directory: string, relative: string): string | undefined => {
          for (const name of volume.readdirSync(directory) as string[]) {
            if (name === '.git') return `${relative}/${name}`;
            const found = volume.lstatSync(`${directory}/${name}`).isDirectory() ? findGit(`${directory}/${name}`, `${relative}/${name}`) : undefined;
            if (found !== undefined) return found;
          }
          return undefined;
        };
        const git = findGit(at(path), path);
        if (git !== undefined) throw providerErrors.protectedPath(path, git as WorkspacePath);
        volume.rmSync(at(path), { recursive: true });
        return { deleted: true };
      },
    })),
    fails: [
      '.git > recursive delete refuses a tree holding .GIT as a directory directly inside',
      '.git > recursive delete refuses a tree holding git~1 as a file three levels down',
      '.git > recursive delete refuses a tree holding .git with a zero-width space as a directory directly inside',
      '.git > recursive delete refuses a tree holding .git with an NTFS stream suffix as a directory directly inside',
    ],
    passes: ['.git > recursive delete refuses a tree holding .git as a directory directly inside'],
  },
  {
    name: 'puts the host path in messages',
    factory: broken((inner) => {
      const leaky =
        <A extends [WorkspacePath, ...unknown[]], R>(method: (...args: A) => Promise<R>) =>
        async (...args: A): Promise<R> => {
          try {
            return await method(...args);
          } catch (error) {
            return rewrap(
              error,
              (libos) =>
                new LibosError(libos.code, `${libos.message} (/workspace/${args[0]})`, {
                  effect: libos.effect,
                  ...(libos.details === undefined ? {} : { details: libos.details }),
                }),
            );
          }
        };
      return { readFile: leaky(inner.readFile), deleteFile: leaky(inner.deleteFile) };
    }),
    fails: ['errors > readFile on missing -> not_found', 'errors > deleteFile on a directory -> not_a_file'],
  },
  {
    name: 'names the link target in messages',
    factory: broken((inner, volume, at) => ({
      readFile: async (path, options) => {
        try {
          return await inner.readFile(path, options);
        } catch (error) {
          return rewrap(error, (libos) => {
            const target = isLink(volume, at(path)) ? String(volume.readlinkSync(at(path))) : '';
            return new LibosError(libos.code, `${libos.message} It points to ${target}.`, {
              ...(libos.details === undefined ? {} : { details: libos.details }),
            });
          });
        }
      },
    })),
    fails: ['symlinks > readFile on a link to a file outside as a root child -> symlink_refused'],
  },
  {
    name: 'reports refusals with effect unknown',
    factory: broken((inner) => ({
      deleteFile: async (path, options) => {
        try {
          return await inner.deleteFile(path, options);
        } catch (error) {
          return rewrap(error, (libos) => libos.withEffect('unknown'));
        }
      },
    })),
    fails: ['errors > deleteFile on a directory -> not_a_file'],
  },
  {
    name: 'throws plain errors',
    factory: broken((inner) => ({
      stat: async (path) => {
        try {
          return await inner.stat(path);
        } catch (error) {
          throw new Error(String((error as Error).message));
        }
      },
    })),
    fails: ['errors > stat on a missing parent -> not_found'],
  },
  {
    name: 'keeps working after close',
    factory: broken(() => ({ close: async () => {} })),
    fails: ['lifecycle > every call after close fails with provider_failure'],
  },
];
