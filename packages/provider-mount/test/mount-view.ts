import { ROOT_PATH, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import { rebaseError, rebaseHandle, rebaseListing, rebasing, type PathMapping } from '../src/rebase-paths.js';

/**
 * The conformance kit's view of one mount: a provider whose root is the mount point `name` of
 * `provider` (a mount provider), so the unmodified kit drives the mount provider's routing, path
 * mapping and error mapping. Every path the mount provider reports must lie in that mount (else the
 * view throws a plain Error, which fails the case): a path left unmapped, or mapped into another
 * mount, cannot pass.
 */
export function mountView(provider: FileSystemProviderV1, name: string): FileSystemProviderV1 {
  const into: PathMapping = (path) => (path === ROOT_PATH ? name : `${name}/${path}`) as WorkspacePath;
  const back: PathMapping = (path) => {
    if (path === name) return ROOT_PATH;
    if (path.startsWith(`${name}/`)) return path.slice(name.length + 1) as WorkspacePath;
    throw new Error(`The mount provider reported ${JSON.stringify(path)}, which is not in the mount ${JSON.stringify(name)}.`);
  };
  const call = <T>(run: () => Promise<T>): Promise<T> => rebasing(back, run);
  const view: FileSystemProviderV1 = {
    specificationVersion: 'v1',
    name: `${provider.name}:${name}`,
    capabilities: provider.capabilities,
    stat: (path, options) => call(() => provider.stat(into(path), options)),
    listDirectory: (path, options) => call(async () => rebaseListing(await provider.listDirectory(into(path), options), back)),
    readFile: (path, options) => call(() => provider.readFile(into(path), options)),
    writeFile: (path, bytes, options) => call(() => provider.writeFile(into(path), bytes, options)),
    makeDirectory: (path, options) => call(() => provider.makeDirectory(into(path), options)),
    deleteFile: (path, options) => call(() => provider.deleteFile(into(path), options)),
    deleteDirectory: (path, options) => call(() => provider.deleteDirectory(into(path), options)),
    close: () => provider.close(),
  };
  const { rename, appendFile, copyFile, readFileRange, openDirectory, checkPath, hostPath } = provider;
  if (rename !== undefined) view.rename = (from, to, options) => call(() => rename.call(provider, into(from), into(to), options));
  if (appendFile !== undefined) view.appendFile = (path, bytes, options) => call(() => appendFile.call(provider, into(path), bytes, options));
  if (copyFile !== undefined) view.copyFile = (from, to, options) => call(() => copyFile.call(provider, into(from), into(to), options));
  if (readFileRange !== undefined) view.readFileRange = (path, options) => call(() => readFileRange.call(provider, into(path), options));
  if (openDirectory !== undefined) {
    view.openDirectory = (path, options) => call(async () => rebaseHandle(await openDirectory.call(provider, into(path), options), back));
  }
  if (checkPath !== undefined) {
    view.checkPath = (path, options) => {
      try {
        checkPath.call(provider, into(path), options);
      } catch (error) {
        throw rebaseError(error, back);
      }
    };
  }
  if (hostPath !== undefined) view.hostPath = (path) => hostPath.call(provider, into(path));
  return view;
}
