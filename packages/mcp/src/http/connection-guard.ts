import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** The connections a server keeps open at once, before any request is read or authenticated. */
export interface ConnectionLimits {
  /** All connections (default: half the process's file-descriptor limit, at most 1024). */
  readonly maxConnections?: number;
  /** Connections from one source address (default 64). */
  readonly maxConnectionsPerSource?: number;
  /** How long a new connection may take to send its first request's headers (default 10 s). */
  readonly headersTimeoutMs?: number;
}

const DEFAULT_PER_SOURCE = 64;
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const MAX_DEFAULT_TOTAL = 1024;

/**
 * Half the soft file-descriptor limit: the other half stays for the workspace's own files, so
 * that no number of connections makes the tools of sessions already open fail.
 */
function defaultMaxConnections(): number {
  try {
    const soft = /^Max open files\s+(\d+)/mu.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    if (soft !== undefined) return Math.max(8, Math.min(MAX_DEFAULT_TOTAL, Math.floor(Number(soft) / 2)));
  } catch {
    // No /proc: the fixed bound below.
  }
  return MAX_DEFAULT_TOTAL / 4;
}

/**
 * Closes a new connection at once when the server already holds `maxConnections`, or
 * `maxConnectionsPerSource` from the same address: a client without the token cannot hold every
 * file descriptor (slowloris), and one source cannot take every slot; a connection that has not
 * sent its first request's headers within `headersTimeoutMs` is closed. Returns the bounds applied.
 */
export function guardConnections(server: Server, limits: ConnectionLimits, log: (line: string) => void): Required<ConnectionLimits> {
  const maxConnections = limits.maxConnections ?? defaultMaxConnections();
  const maxConnectionsPerSource = limits.maxConnectionsPerSource ?? DEFAULT_PER_SOURCE;
  const headersTimeoutMs = limits.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const waiting = new Map<Socket, NodeJS.Timeout>();
  // The first request's headers end the wait; Node's own headersTimeout bounds the later ones.
  server.on('request', (request) => {
    clearTimeout(waiting.get(request.socket));
    waiting.delete(request.socket);
  });
  const bySource = new Map<string, number>();
  let total = 0;
  let refused = 0;
  let lastNote = 0;
  server.on('connection', (socket: Socket) => {
    const source = socket.remoteAddress ?? '';
    const held = bySource.get(source) ?? 0;
    if (total >= maxConnections || held >= maxConnectionsPerSource) {
      socket.destroy();
      refused += 1;
      // One note a minute at most: a flood must not flood the log too.
      if (Date.now() - lastNote > 60_000) {
        lastNote = Date.now();
        log(`refused ${refused} connection(s) so far: ${total} open (at most ${maxConnections}, ${maxConnectionsPerSource} per source)`);
      }
      return;
    }
    total += 1;
    bySource.set(source, held + 1);
    waiting.set(
      socket,
      setTimeout(() => socket.destroy(), headersTimeoutMs),
    );
    socket.once('close', () => {
      clearTimeout(waiting.get(socket));
      waiting.delete(socket);
      total -= 1;
      const left = (bySource.get(source) ?? 1) - 1;
      if (left === 0) bySource.delete(source);
      else bySource.set(source, left);
    });
  });
  return { maxConnections, maxConnectionsPerSource, headersTimeoutMs };
}
