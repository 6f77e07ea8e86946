import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Why a request is turned away before it reaches a session, as an HTTP status and a sentence. */
export interface Refusal {
  readonly status: 401 | 403;
  readonly message: string;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Checks one request: the bearer token (compared in constant time: both sides are hashed first,
 * so neither the content nor the length of the token leaks through timing) and the `Origin` a
 * browser sends (a page on another origin, or a DNS-rebound name, must not drive the tools). The
 * token is read from the `Authorization` header only, never from the URL, where logs keep it.
 */
export function checkAccess(request: IncomingMessage, token: string | undefined, ownOrigins: ReadonlySet<string>): Refusal | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined && !ownOrigins.has(origin.toLowerCase())) {
    return { status: 403, message: `Forbidden: requests from the origin ${JSON.stringify(origin)} are refused.` };
  }
  if (token === undefined) return undefined;
  const header = request.headers.authorization ?? '';
  const presented = /^Bearer +(?<token>\S+)$/iu.exec(header)?.groups?.token ?? '';
  if (!timingSafeEqual(digest(presented), digest(token))) {
    return { status: 401, message: 'Unauthorized: send the server token as "Authorization: Bearer <token>".' };
  }
  return undefined;
}

/** The origins a browser would send for pages served by this very server. */
export function ownOriginsOf(host: string, port: number): ReadonlySet<string> {
  const names =
    host === '127.0.0.1' || host === 'localhost' || host === '::1' ? ['127.0.0.1', 'localhost', '[::1]'] : [host.includes(':') ? `[${host}]` : host];
  return new Set(names.map((name) => `http://${name}:${port}`.toLowerCase()));
}
