import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { sha256Hex, utf8 } from '../case-context.js';

/** The bytes every precondition's regular files hold. */
export const OLD_CONTENT = 'old';

const newBytes = utf8('new');

/** Every provider call the error table drives, by the name its rows use. */
export const operations = {
  stat: (provider, path) => provider.stat(path),
  listDirectory: (provider, path) => provider.listDirectory(path, { limit: 100 }),
  readFile: (provider, path) => provider.readFile(path, { maxBytes: 1024 }),
  writeFile: (provider, path) => provider.writeFile(path, newBytes, { overwrite: true }),
  'writeFile overwrite:false': (provider, path) => provider.writeFile(path, newBytes, { overwrite: false }),
  'writeFile expectedSha256:missing': (provider, path) => provider.writeFile(path, newBytes, { overwrite: true, expectedSha256: 'missing' }),
  'writeFile expectedSha256 of the old bytes': (provider, path) =>
    provider.writeFile(path, newBytes, { overwrite: true, expectedSha256: sha256Hex(OLD_CONTENT) }),
  'writeFile expectedSha256 of other bytes': (provider, path) =>
    provider.writeFile(path, newBytes, { overwrite: true, expectedSha256: sha256Hex('other') }),
  'writeFile overwrite:false expectedSha256:missing': (provider, path) =>
    provider.writeFile(path, newBytes, { overwrite: false, expectedSha256: 'missing' }),
  'writeFile overwrite:false expectedSha256 of other bytes': (provider, path) =>
    provider.writeFile(path, newBytes, { overwrite: false, expectedSha256: sha256Hex('other') }),
  makeDirectory: (provider, path) => provider.makeDirectory(path, { parents: true, existOk: true }),
  'makeDirectory existOk:false': (provider, path) => provider.makeDirectory(path, { parents: true, existOk: false }),
  'makeDirectory parents:false': (provider, path) => provider.makeDirectory(path, { parents: false, existOk: true }),
  deleteFile: (provider, path) => provider.deleteFile(path, { missingOk: false }),
  'deleteFile missingOk': (provider, path) => provider.deleteFile(path, { missingOk: true }),
  deleteDirectory: (provider, path) => provider.deleteDirectory(path, { recursive: false, missingOk: false }),
  'deleteDirectory recursive': (provider, path) => provider.deleteDirectory(path, { recursive: true, missingOk: false }),
  'deleteDirectory recursive missingOk': (provider, path) => provider.deleteDirectory(path, { recursive: true, missingOk: true }),
} satisfies Record<string, (provider: FileSystemProviderV1, path: WorkspacePath) => Promise<unknown>>;

/** The name of one operation of the table. */
export type OperationName = keyof typeof operations;
