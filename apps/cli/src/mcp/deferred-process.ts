import type { CallResult } from '@libos/core';
import type { McpProcess } from '@libos/mcp';

/** A process known only once the workspace is (the client's MCP roots decide it after `initialize`). */
export interface DeferredProcess {
  readonly process: McpProcess;
  /** The process every call, waiting or later, runs in. */
  resolve(process: McpProcess): void;
  /** No workspace will be served: every call, waiting or later, fails with this sentence. */
  refuse(message: string): void;
}

export function createDeferredProcess(): DeferredProcess {
  let settle: (outcome: McpProcess | string) => void = () => {};
  const ready = new Promise<McpProcess | string>((resolve) => (settle = resolve));
  let settled: McpProcess | string | undefined;
  void ready.then((outcome) => (settled = outcome));
  const refusal = (message: string): CallResult => ({ ok: false, error: { code: 'provider_failure', message, effect: 'none', details: {} } });
  return {
    process: {
      async call(name, args, options) {
        const outcome = await ready;
        return typeof outcome === 'string' ? refusal(outcome) : outcome.call(name, args, options);
      },
      async end() {
        const outcome = settled;
        if (outcome !== undefined && typeof outcome !== 'string') await outcome.end?.();
      },
    },
    resolve: (process) => settle(process),
    refuse: (message) => settle(message),
  };
}
