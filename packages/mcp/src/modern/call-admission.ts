import type { Socket } from 'node:net';

/**
 * What 2026-07-28 calls over HTTP may hold (docs/mcp.md, "Back-pressure"). There is no session to
 * bound, and one token is often shared by every client behind a proxy, so the unit is the
 * connection: a request in flight holds its connection until its reply is written.
 */
export interface ModernCallLimits {
  /** Requests one connection may have taken and not yet answered and written; more wait their turn. */
  readonly perConnection: number;
  /** Requests in flight beyond each connection's first, over all connections; more wait, one connection at a time. */
  readonly total: number;
  /** Requests one connection may have waiting; past that the next is refused (503) and its connection closed. */
  readonly waitingPerConnection: number;
}

/** As many as a 2025-era session holds (8 calls; 64 requests read past that), and 64 beyond each connection's first. */
export const DEFAULT_MODERN_CALL_LIMITS: ModernCallLimits = { perConnection: 8, total: 64, waitingPerConnection: 64 };

/** Called once the request's reply has been written whole, or its connection is gone. */
export type ReleaseCall = () => void;

interface ConnectionState {
  inFlight: number;
  /** Each resolves with true when the request may run, false when its connection closed first. */
  readonly waiting: ((admitted: boolean) => void)[];
}

/**
 * Admits the 2026-07-28 requests of every connection under `ModernCallLimits`. A connection's first
 * request is always admitted at once: a client sending one request at a time never waits behind
 * anyone's calls, however many clients share its address or token, and the connections themselves
 * are bounded (`@libos/http-guard`), so what the server holds is at most `total` plus one per
 * connection. A connection that pipelines more runs at most `perConnection` of them, and only
 * while the server-wide `total` allows; the rest wait, and as calls end the waiting connections
 * are served in turn, one request each, so no connection pushes ahead of another.
 */
export class CallAdmission {
  readonly #limits: ModernCallLimits;
  /** Kept for as long as the connection lives (a WeakMap: a closed connection's state goes with it). */
  readonly #connections = new WeakMap<Socket, ConnectionState>();
  /** Connections with requests waiting, in the order they are served. */
  #turn: Socket[] = [];
  /** Requests in flight beyond each connection's first. */
  #beyondFirst = 0;

  constructor(limits: ModernCallLimits) {
    this.#limits = limits;
  }

  /**
   * Resolves with the release of the request's slot once it may run, or undefined when its
   * connection closed while it waited. Undefined at once (no promise) when the connection already
   * has as many requests waiting as it may: refuse that request.
   */
  admit(socket: Socket): Promise<ReleaseCall | undefined> | undefined {
    // Gone before it was admitted: its `close` has passed, so nothing would ever drop it from a queue.
    if (socket.destroyed === true) return Promise.resolve(undefined);
    const state = this.#stateOf(socket);
    if (state.waiting.length === 0 && this.#mayRun(state)) return Promise.resolve(this.#take(state));
    if (state.waiting.length >= this.#limits.waitingPerConnection) return undefined;
    if (state.waiting.length === 0) this.#turn.push(socket);
    return new Promise((resolve) => state.waiting.push((admitted) => resolve(admitted ? this.#take(state) : undefined)));
  }

  #stateOf(socket: Socket): ConnectionState {
    let state = this.#connections.get(socket);
    if (state !== undefined) return state;
    state = { inFlight: 0, waiting: [] };
    this.#connections.set(socket, state);
    const created = state;
    // Requests still waiting when their connection goes can never be answered: drop them.
    socket.once('close', () => {
      for (const wake of created.waiting.splice(0)) wake(false);
      this.#turn = this.#turn.filter((candidate) => candidate !== socket);
    });
    return state;
  }

  #mayRun(state: ConnectionState): boolean {
    return state.inFlight === 0 || (state.inFlight < this.#limits.perConnection && this.#beyondFirst < this.#limits.total);
  }

  #take(state: ConnectionState): ReleaseCall {
    if (state.inFlight > 0) this.#beyondFirst += 1;
    state.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.inFlight -= 1;
      if (state.inFlight > 0) this.#beyondFirst -= 1;
      this.#serveWaiting();
    };
  }

  /**
   * Round after round, each waiting connection that may run one more request runs one; a connection
   * served goes behind those that were not, so a freed slot goes to whoever has waited longest.
   */
  #serveWaiting(): void {
    let admitted = true;
    while (admitted && this.#turn.length > 0) {
      admitted = false;
      const passed: Socket[] = [];
      const served: Socket[] = [];
      for (const socket of this.#turn) {
        const state = this.#connections.get(socket);
        if (state === undefined || state.waiting.length === 0) continue;
        const runs = this.#mayRun(state);
        if (runs) {
          state.waiting.shift()!(true);
          admitted = true;
        }
        if (state.waiting.length > 0) (runs ? served : passed).push(socket);
      }
      this.#turn = [...passed, ...served];
    }
  }
}
