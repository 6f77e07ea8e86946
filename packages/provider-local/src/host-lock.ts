import { createServer } from 'node:net';
import { LibosError } from '@libos/core';

/**
 * A name held host-wide for as long as this process keeps it, released by the kernel the moment
 * the process dies, however it dies: a listening Unix socket in Linux's abstract namespace (a name
 * starting with NUL, no file on disk). Binding a name someone holds fails with EADDRINUSE, so the
 * bind is the test-and-set. Node 20 offers no flock; this needs no native code, and a crashed
 * holder can never leave it stuck. Its scope is the network namespace: every runtime on the host
 * shares it unless it was started in a separate one (a container with its own network).
 */
export interface HostLock {
  /** Gives the name up; the kernel releases it at once. Idempotent. */
  release(): void;
}

// The bind's failure is also emitted later as an 'error' event, which must not go unhandled.
const ignore = (): void => undefined;

/**
 * Takes `name` if nobody holds it (this process or another); null otherwise. Synchronous: Node
 * binds and listens inside `listen()` and only reports the outcome later, so `listening` already
 * tells whether the name is ours, with no turn of the event loop.
 */
export function tryHold(name: string): HostLock | null {
  const server = createServer();
  server.on('error', ignore);
  // exclusive: a cluster worker must bind for itself, not share the primary's handle.
  server.listen({ path: `\0${name}`, exclusive: true });
  if (!server.listening) return null;
  // The lock never keeps the process alive by itself; nobody is ever served on it.
  server.unref();
  server.on('connection', (connection) => connection.destroy());
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      server.close();
    },
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
    const lock = tryHold(name);
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
