import type { ProviderMiddleware } from '@libos/provider-kit';

/**
 * The middleware that makes the provider one tool call sees: every call's options carry `label`, the
 * tool's name, so a provider that keeps a history (the overlay, docs/overlay.md) can say which tool
 * changed what. Options the tool passed win; nothing else about the call changes.
 */
export function tagProviderCalls(tool: string): ProviderMiddleware {
  // `tool` too, the deprecated name of `label`, for one release: a provider that reads it still finds it.
  const tag = { label: tool, tool };
  return {
    stat: (next, path, options) => next(path, { ...tag, ...options }),
    listDirectory: (next, path, options) => next(path, { ...tag, ...options }),
    readFile: (next, path, options) => next(path, { ...tag, ...options }),
    readFileRange: (next, path, options) => next(path, { ...tag, ...options }),
    openDirectory: (next, path, options) => next(path, { ...tag, ...options }),
    writeFile: (next, path, bytes, options) => next(path, bytes, { ...tag, ...options }),
    appendFile: (next, path, bytes, options) => next(path, bytes, { ...tag, ...options }),
    makeDirectory: (next, path, options) => next(path, { ...tag, ...options }),
    deleteFile: (next, path, options) => next(path, { ...tag, ...options }),
    deleteDirectory: (next, path, options) => next(path, { ...tag, ...options }),
    rename: (next, from, to, options) => next(from, to, { ...tag, ...options }),
    copyFile: (next, from, to, options) => next(from, to, { ...tag, ...options }),
    searchTree: (next, path, query) => next(path, { ...tag, ...query }),
  };
}
