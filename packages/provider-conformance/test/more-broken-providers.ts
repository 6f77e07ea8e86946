import { LibosError, pathSegments, providerErrors } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { broken, type BrokenCase } from './broken-provider.js';

/** Providers that mangle names, leave stray entries or misread a directory of links; with the ids they must fail. */
export const moreBrokenProviders: readonly BrokenCase[] = [
  {
    name: 'leaves a temporary file beside a refused write',
    factory: broken((inner, volume, at) => ({
      writeFile: async (path, bytes, options) => {
        const temporary = `${at(path)}.partial`;
        try {
          volume.writeFileSync(temporary, bytes);
        } catch {
          // No parent directory yet: nothing to leave behind.
        }
        const result = await inner.writeFile(path, bytes, options);
        if (volume.existsSync(temporary)) volume.unlinkSync(temporary);
        return result;
      },
    })),
    fails: [
      'writing > writes, refused writes included, leave no other entry behind',
      'hard links > writeFile on a hard-linked file -> hard_link_refused',
      'errors > writeFile expectedSha256 of other bytes on a file -> content_conflict',
    ],
    passes: ['writing > creates a file and reports created'],
  },
  {
    name: 'normalizes names to NFC on read',
    factory: broken((inner) => ({
      readFile: (path, options) => inner.readFile(path.normalize('NFC') as WorkspacePath, options),
    })),
    fails: ['names > names differing only in case or Unicode normalization are distinct'],
  },
  {
    name: 'fails paths over 1024 bytes',
    factory: broken((inner) => ({
      writeFile: async (path, bytes, options) => {
        if (path.length > 1024) throw providerErrors.failure(path, 'ENAMETOOLONG');
        return inner.writeFile(path, bytes, options);
      },
    })),
    fails: ['names > a path of exactly 4096 bytes can be written, read, listed and deleted'],
  },
  {
    name: 'deletes a directory holding only links without recursive',
    factory: broken((inner) => ({
      deleteDirectory: async (path, options) => {
        if (!options.recursive) {
          const { entries } = await inner.listDirectory(path, { limit: 1000 });
          if (entries.every((entry) => entry.kind === 'symlink')) return inner.deleteDirectory(path, { ...options, recursive: true });
        }
        return inner.deleteDirectory(path, options);
      },
    })),
    fails: ['symlinks > deleteDirectory on a directory holding only a link -> directory_not_empty'],
    passes: ['deleting directories > deletes an empty root-level directory'],
  },
  {
    name: 'empties the whole workspace on deleteDirectory of the root',
    factory: broken((inner, volume, at) => ({
      deleteDirectory: async (path, options) => {
        if (path !== '.') return inner.deleteDirectory(path, options);
        for (const name of volume.readdirSync(at('.')) as string[]) volume.rmSync(at(name), { recursive: true });
        return { deleted: true };
      },
    })),
    fails: [
      'errors > deleteDirectory recursive on the root -> root_refused',
      'errors > deleteDirectory on the root -> root_refused',
      'errors > deleteDirectory recursive missingOk on the root -> root_refused',
    ],
    passes: ['deleting directories > deletes an empty root-level directory'],
  },
  {
    name: 'drifts from the shared details keys',
    factory: broken((inner) => {
      // The drift the shared factories ended: camelCase keys and a detail one provider adds on its own.
      const drift = (error: unknown): never => {
        if (!LibosError.is(error)) throw error;
        const { links, host_code: hostCode, ...rest } = error.details ?? {};
        const details = { ...rest, ...(links === undefined ? {} : { linkCount: links }), ...(hostCode === undefined ? {} : { hostCode }) };
        throw new LibosError(error.code, error.message, { effect: error.effect, details });
      };
      return {
        readFile: (path, options) => inner.readFile(path, options).catch(drift),
        deleteFile: (path, options) =>
          inner.deleteFile(path, options).catch((error: unknown) => {
            if (LibosError.is(error, 'not_a_file')) {
              throw new LibosError('not_a_file', error.message, { details: { path, kind: error.details?.kind, type: 'directory' } });
            }
            throw error;
          }),
      };
    }),
    fails: ['hard links > readFile on a hard-linked file -> hard_link_refused', 'errors > deleteFile on a directory -> not_a_file'],
    passes: ['errors > readFile on missing -> not_found'],
  },
  {
    name: 'names a path it was not called with',
    factory: broken((inner) => ({
      readFile: (path, options) =>
        inner.readFile(path, options).catch((error: unknown) => {
          if (!LibosError.is(error)) throw error;
          throw new LibosError(error.code, error.message, { effect: error.effect, details: { ...error.details, path: 'elsewhere' } });
        }),
    })),
    fails: ['errors > readFile on missing -> not_found'],
  },
  {
    name: 'ignores the signal',
    factory: broken((inner) => ({
      writeFile: (path, bytes, options) => inner.writeFile(path, bytes, { overwrite: options.overwrite }),
    })),
    fails: ['cancellation > every call with an aborted signal fails with provider_failure and changes nothing'],
    passes: ['cancellation > a signal that never aborts changes nothing about a call'],
  },
  {
    name: 'checks expectedSha256 before overwrite:false',
    factory: broken((inner) => ({
      writeFile: async (path, bytes, options) => {
        if (!options.overwrite && options.expectedSha256 !== undefined) return inner.writeFile(path, bytes, { ...options, overwrite: true });
        return inner.writeFile(path, bytes, options);
      },
    })),
    fails: [
      'errors > writeFile overwrite:false expectedSha256:missing on a file -> already_exists',
      'errors > writeFile overwrite:false expectedSha256 of other bytes on a file -> already_exists',
    ],
    passes: ['errors > writeFile overwrite:false expectedSha256 of other bytes on missing -> content_conflict'],
  },
  {
    name: 'pre-scans a tree with bounded listings and depth',
    factory: broken((inner, volume, at) => {
      const findGit = async (path: WorkspacePath, depth: number): Promise<WorkspacePath | undefined> => {
        if (depth > 10) return undefined;
        const { entries } = await inner.listDirectory(path, { limit: 1000 });
        for (const entry of entries) {
          if (entry.name === '.git') return entry.path;
          const found = entry.kind === 'directory' ? await findGit(entry.path, depth + 1) : undefined;
          if (found !== undefined) return found;
        }
        return undefined;
      };
      return {
        deleteDirectory: async (path, options) => {
          if (!options.recursive) return inner.deleteDirectory(path, options);
          const git = await findGit(path, 0);
          if (git !== undefined) throw providerErrors.protectedPath(path, git);
          volume.rmSync(at(path), { recursive: true });
          return { deleted: true };
        },
      };
    }),
    fails: [
      '.git > recursive delete refuses a .git listed after more than a thousand names',
      '.git > recursive delete refuses a .git forty levels down',
    ],
    passes: ['.git > recursive delete refuses a tree holding .git as a directory directly inside'],
  },
  {
    name: 'reports a missing ancestor as a missing path',
    factory: broken((inner) => ({
      stat: async (path) => {
        try {
          return await inner.stat(path);
        } catch (error) {
          if (LibosError.is(error, 'not_found') && pathSegments(path).length > 1) return { kind: 'missing', sizeBytes: null, modifiedAt: null };
          throw error;
        }
      },
    })),
    fails: ['errors > stat on a missing parent -> not_found'],
  },
];
