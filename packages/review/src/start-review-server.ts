import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { isIP } from 'node:net';
import { createReviewHandler } from './create-review-handler.js';
import type { ReviewCalls, ReviewOperations } from './review-operations.js';

/** Options of `startReviewServer`. */
export interface ReviewServerOptions {
  readonly operations: ReviewOperations;
  readonly calls?: ReviewCalls;
  /** A loopback address (default `127.0.0.1`); anything else is refused. */
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
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
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, (request, response) => handler!(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the review server has no TCP address');
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${shown}:${address.port}`;
  const hosts = new Set([`${shown}:${address.port}`]);
  handler = createReviewHandler({
    operations: options.operations,
    ...(options.calls === undefined ? {} : { calls: options.calls }),
    origin,
    hosts,
    token,
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
