import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { defaultMaxConnections } from './default-max-connections.js';

/** What a server lets peers hold before they have shown its token. */
export interface ConnectionGuardOptions {
  /** Connections open at once, authenticated or not (default: half the file-descriptor limit, at most 1024). */
  readonly maxConnections?: number;
  /** Slots only authenticated connections may use (default a quarter of `maxConnections`). */
  readonly reservedForAuthenticated?: number;
  /** How long a new connection has to send a request carrying the valid token before it is closed (default 10 s). */
  readonly authenticationTimeoutMs?: number;
  /** Where a note goes when connections are closed to keep the bounds (at most one a minute). */
  readonly log?: (line: string) => void;
}

/** The bounds a guard keeps, and how its server says a connection has authenticated. */
export interface ConnectionGuard {
  readonly maxConnections: number;
  /** `maxConnections` less the reserve: the most connections that have not authenticated. */
  readonly maxUnauthenticated: number;
  readonly authenticationTimeoutMs: number;
  /**
   * Marks `socket` authenticated: a request on it carried the valid token. From then on it counts
   * only against `maxConnections`, and no timer closes it. Each later request on it is still
   * checked by the server; this only says the peer at the other end once held the token.
   */
  authenticated(socket: Socket): void;
  /** Connections open now that have not authenticated. */
  readonly unauthenticatedCount: number;
  /** Connections open now that have. */
  readonly authenticatedCount: number;
}

const DEFAULT_AUTHENTICATION_TIMEOUT_MS = 10_000;
const NOTE_INTERVAL_MS = 60_000;

/**
 * Bounds what a peer without the token can hold of `server`, never what an authenticated client
 * may use. A new connection has `authenticationTimeoutMs` to send a request with the token, else
 * it is closed (a slowloris trickling its headers included). At most `maxUnauthenticated`
 * connections wait to authenticate; past that a new connection closes the one that has waited
 * longest: a peer that never authenticates cannot keep out a client that sends its token at once,
 * from whatever addresses it connects (every `127.x` is loopback). The reserve stays for
 * authenticated connections, which are counted only against `maxConnections`, so one client host
 * (behind a proxy, every session shares one address) may keep as many as that.
 */
export function guardConnections(server: Server, options: ConnectionGuardOptions = {}): ConnectionGuard {
  const maxConnections = options.maxConnections ?? defaultMaxConnections();
  const reserved = options.reservedForAuthenticated ?? Math.floor(maxConnections / 4);
  if (!Number.isSafeInteger(maxConnections) || maxConnections < 2) throw new RangeError('maxConnections must be a whole number of at least 2');
  if (!Number.isSafeInteger(reserved) || reserved < 0 || reserved >= maxConnections) {
    throw new RangeError('reservedForAuthenticated must be a whole number from 0 to maxConnections - 1');
  }
  const maxUnauthenticated = maxConnections - reserved;
  const authenticationTimeoutMs = options.authenticationTimeoutMs ?? DEFAULT_AUTHENTICATION_TIMEOUT_MS;
  const log = options.log ?? (() => {});
  // Insertion order is age: the first entry has waited longest.
  const waiting = new Map<Socket, NodeJS.Timeout>();
  const trusted = new Set<Socket>();
  const closed = { evicted: 0, timedOut: 0, refused: 0 };
  let lastNote = 0;

  const note = () => {
    if (Date.now() - lastNote < NOTE_INTERVAL_MS) return;
    lastNote = Date.now();
    log(
      `closed connections that did not authenticate: ${closed.evicted} to make room, ${closed.timedOut} after ${authenticationTimeoutMs} ms; ` +
        `refused ${closed.refused} with ${maxConnections} authenticated open`,
    );
  };
  const forget = (socket: Socket) => {
    clearTimeout(waiting.get(socket));
    waiting.delete(socket);
  };
  const evictOldest = () => {
    const [oldest] = waiting.keys();
    if (oldest === undefined) return false;
    forget(oldest);
    oldest.destroy();
    closed.evicted += 1;
    note();
    return true;
  };

  server.on('connection', (socket: Socket) => {
    if (waiting.size >= maxUnauthenticated || waiting.size + trusted.size >= maxConnections) {
      // Every slot held by authenticated connections: the newcomer waits for one to close.
      if (!evictOldest()) {
        socket.destroy();
        closed.refused += 1;
        note();
        return;
      }
    }
    const timer = setTimeout(() => {
      forget(socket);
      socket.destroy();
      closed.timedOut += 1;
      note();
    }, authenticationTimeoutMs);
    timer.unref();
    waiting.set(socket, timer);
    socket.once('close', () => {
      forget(socket);
      trusted.delete(socket);
    });
  });

  return {
    maxConnections,
    maxUnauthenticated,
    authenticationTimeoutMs,
    authenticated(socket) {
      // A socket the guard closed already (or never saw) gains nothing.
      if (!waiting.has(socket)) return;
      forget(socket);
      trusted.add(socket);
    },
    get unauthenticatedCount() {
      return waiting.size;
    },
    get authenticatedCount() {
      return trusted.size;
    },
  };
}
