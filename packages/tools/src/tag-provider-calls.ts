import type { ProviderMiddleware } from '@libos/provider-kit';

/**
 * The middleware that makes the provider one tool call sees: every call's options carry `tool`, the
 * tool's name, so a provider that keeps a history (the overlay, docs/overlay.md) can say which tool
 * changed what. Options the tool passed win; nothing else about the call changes.
 */
export function tagProviderCalls(tool: string): ProviderMiddleware {
  return {
    stat: (next, path, options) => next(path, { tool, ...options }),
    listDirectory: (next, path, options) => next(path, { tool, ...options }),
    readFile: (next, path, options) => next(path, { tool, ...options }),
    readFileRange: (next, path, options) => next(path, { tool, ...options }),
    openDirectory: (next, path, options) => next(path, { tool, ...options }),
    writeFile: (next, path, bytes, options) => next(path, bytes, { tool, ...options }),
    appendFile: (next, path, bytes, options) => next(path, bytes, { tool, ...options }),
    makeDirectory: (next, path, options) => next(path, { tool, ...options }),
    deleteFile: (next, path, options) => next(path, { tool, ...options }),
    deleteDirectory: (next, path, options) => next(path, { tool, ...options }),
    rename: (next, from, to, options) => next(from, to, { tool, ...options }),
    copyFile: (next, from, to, options) => next(from, to, { tool, ...options }),
    searchTree: (next, path, query) => next(path, { tool, ...query }),
  };
}
