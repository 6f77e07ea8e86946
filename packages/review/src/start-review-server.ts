import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { isIP } from 'node:net';
import { type ConnectionGuardOptions, guardConnections } from '@libos/http-guard';
import { createReviewHandler } from './create-review-handler.js';
import { refusalOf, type RequestPolicy } from './review-request.js';
import type { ReviewApprovals } from './review-approvals.js';
import type { ReviewCalls, ReviewOperations } from './review-operations.js';

/** Options of `startReviewServer`. */
export interface ReviewServerOptions {
  /** The overlay's operations; without them the page lists pending approvals only. */
  readonly operations?: ReviewOperations;
  readonly calls?: ReviewCalls;
  /** Pending approvals the person answers on the page (`--approvals DIR`). */
  readonly approvals?: ReviewApprovals;
  /** A loopback address (default `127.0.0.1`); anything else is refused. */
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** What a peer without the token may hold (`@libos/http-guard`; default its own bounds, 10 s to authenticate). */
  readonly connections?: Omit<ConnectionGuardOptions, 'log'>;
}

/** A running review server. */
export interface ReviewServer {
  /** The page's address with the one-time token in its fragment (never sent to the server). */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  close(): Promise<void>;
}

/**
 * Serves the review page on loopback only, with a token made for this run: another local user can
 * connect to loopback, but without the token gets nothing, and a page of another site cannot
 * send the token's header with the page's own Origin.
 */
export async function startReviewServer(options: ReviewServerOptions): Promise<ReviewServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host)) throw new Error(`the review page is served on loopback only, not on ${host}`);
  const token = randomBytes(32).toString('base64url');
  let handler: ReturnType<typeof createReviewHandler> | undefined;
  let policy: RequestPolicy | undefined;
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, (request, response) => {
    // An API request that passes the checks carried the token: its connection is authenticated.
    if ((request.url ?? '/').startsWith('/api/') && refusalOf(request, policy!) === undefined) guard.authenticated(request.socket);
    handler!(request, response);
  });
  // Without it, connections from a user without the token (any number of them, from any 127.x)
  // would take every descriptor and make the person's Apply fail.
  const guard = guardConnections(server, options.connections ?? {});
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the review server has no TCP address');
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${shown}:${address.port}`;
  const hosts = new Set([`${shown}:${address.port}`]);
  policy = { origin, hosts, token };
  handler = createReviewHandler({
    operations: options.operations,
    approvals: options.approvals,
    ...(options.calls === undefined ? {} : { calls: options.calls }),
    ...policy,
  });
  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return false; // it may resolve anywhere: name the address
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
