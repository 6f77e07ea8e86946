import type { FileSystemProviderV1 } from '@libos/core';

/**
 * The provider as one tool call sees it: every call's options carry `tool`, the tool's name, so a
 * provider that keeps a history (the overlay, docs/overlay.md) can say which tool changed what.
 * Options the tool passed win; nothing else about the call changes.
 */
export function tagProviderCalls(provider: FileSystemProviderV1, tool: string): FileSystemProviderV1 {
  const tagged: FileSystemProviderV1 = {
    specificationVersion: provider.specificationVersion,
    name: provider.name,
    capabilities: provider.capabilities,
    stat: (path, options) => provider.stat(path, { tool, ...options }),
    listDirectory: (path, options) => provider.listDirectory(path, { tool, ...options }),
    readFile: (path, options) => provider.readFile(path, { tool, ...options }),
    writeFile: (path, bytes, options) => provider.writeFile(path, bytes, { tool, ...options }),
    makeDirectory: (path, options) => provider.makeDirectory(path, { tool, ...options }),
    deleteFile: (path, options) => provider.deleteFile(path, { tool, ...options }),
    deleteDirectory: (path, options) => provider.deleteDirectory(path, { tool, ...options }),
    close: () => provider.close(),
  };
  const { rename, hostPath, appendFile, copyFile, readFileRange, openDirectory, searchTree } = provider;
  if (rename !== undefined) tagged.rename = (from, to, options) => rename.call(provider, from, to, { tool, ...options });
  // Without these, append_text_file, copy_file and a tail read would find no method at all.
  if (appendFile !== undefined) tagged.appendFile = (path, bytes, options) => appendFile.call(provider, path, bytes, { tool, ...options });
  if (copyFile !== undefined) tagged.copyFile = (from, to, options) => copyFile.call(provider, from, to, { tool, ...options });
  if (readFileRange !== undefined) tagged.readFileRange = (path, options) => readFileRange.call(provider, path, { tool, ...options });
  // Without it a walk resolves every file from the root again (search_files measured 2x slower).
  if (openDirectory !== undefined) tagged.openDirectory = (path, options) => openDirectory.call(provider, path, { tool, ...options });
  if (searchTree !== undefined) tagged.searchTree = (path, query) => searchTree.call(provider, path, { tool, ...query });
  if (hostPath !== undefined) tagged.hostPath = (path) => hostPath.call(provider, path);
  return tagged;
}
