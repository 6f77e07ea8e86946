import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { LibosError } from '@libos/core';
import { hostCode } from './map-node-error.js';

/**
 * A name held host-wide for as long as this process keeps it, released by the kernel the moment
 * the process dies, however it dies: a listening Unix socket in Linux's abstract namespace (a name
 * starting with NUL, no file on disk). Binding a name someone holds fails with EADDRINUSE, so the
 * bind is the test-and-set. Node 20 offers no flock; this needs no native code, and a crashed
 * holder can never leave it stuck. Its scope is the network namespace: every runtime on the host
 * shares it unless it was started in a separate one (a container with its own network).
 */
export interface HostLock {
  /** Gives the name up; resolves once the kernel has released it. Idempotent. */
  release(): Promise<void>;
}

/** Takes `name` if nobody holds it; null when another holder (this process or another) has it. */
export function tryHold(name: string): Promise<HostLock | null> {
  return new Promise((resolve, reject) => {
    const server = createServer((connection) => connection.destroy());
    server.once('error', (error) => {
      if (hostCode(error) === 'EADDRINUSE') resolve(null);
      else
        reject(
          new LibosError('provider_failure', 'The provider cannot take its host-wide lock.', {
            details: { host_code: hostCode(error) ?? 'unknown' },
          }),
        );
    });
    // exclusive: a cluster worker must bind for itself, not share the primary's handle.
    server.listen({ path: `\0${name}`, exclusive: true }, () => {
      // The lock never keeps the process alive by itself.
      server.unref();
      resolve(held(server));
    });
  });
}

function held(server: Server): HostLock {
  let released: Promise<void> | undefined;
  return {
    release: () => (released ??= new Promise((resolve) => server.close(() => resolve()))),
  };
}

/**
 * Takes `name`, waiting while another holder has it (holders keep it for microseconds, and a dead
 * one has already let go). Fails with `changed_during_operation`, nothing done, past `timeoutMs`.
 * `beforeWait` runs before each wait and may throw to stop waiting (a cancelled call).
 */
export async function hold(name: string, timeoutMs = 10_000, beforeWait?: () => void): Promise<HostLock> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const lock = await tryHold(name);
    if (lock !== null) return lock;
    if (Date.now() > deadline) {
      throw new LibosError('changed_during_operation', 'Another libOS runtime kept the file locked; nothing was changed.', {
        effect: 'none',
      });
    }
    beforeWait?.();
    // Spin on the event loop first, then back off to a millisecond so a long holder costs no CPU.
    await new Promise((resolve) => (attempt < 8 ? setImmediate(resolve) : setTimeout(resolve, 1)));
  }
}
