import { LibosError, type CallResult } from '@libos/core';

/** The calls of one process and its end (docs/rules.md, Object Memory). */
export interface ProcessLifetime {
  /**
   * Runs a call, or once the process has ended hands it the `denied` refusal to answer with (the
   * pipeline still records it: every call has its record, a refused one too).
   */
  run(call: (refusal?: LibosError) => Promise<CallResult>): Promise<CallResult>;
  /** Ends the process once: later calls are refused at once, `release` runs after the calls in flight. */
  end(release: () => Promise<void>): Promise<void>;
  readonly ended: boolean;
}

/** Tracks the calls in flight, so that ending never drops a namespace a running call still writes to. */
export function createProcessLifetime(id: string): ProcessLifetime {
  let ended = false;
  let active = 0;
  let idle: (() => void) | undefined;
  let ending: Promise<void> | undefined;
  return {
    get ended() {
      return ended;
    },
    async run(call) {
      if (ended) return call(new LibosError('denied', 'This process has ended; spawn a new process to call tools.', { details: { process: id } }));
      active += 1;
      try {
        return await call();
      } finally {
        active -= 1;
        if (active === 0) idle?.();
      }
    },
    end(release) {
      ended = true;
      ending ??= (async () => {
        if (active > 0) await new Promise<void>((resolve) => (idle = resolve));
        await release();
      })();
      return ending;
    },
  };
}
