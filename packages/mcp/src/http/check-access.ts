import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isLoopback } from '../loopback.js';

/** Why a request is turned away before it reaches a session, as an HTTP status and a sentence. */
export interface Refusal {
  readonly status: 400 | 401 | 403;
  readonly message: string;
}

const SINGLE_HEADERS = ['host', 'authorization', 'origin'] as const;

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Checks one request: the bearer token (compared in constant time: both sides are hashed first,
 * so neither the content nor the length of the token leaks through timing) and the `Origin` a
 * browser sends (a page on another origin, or a DNS-rebound name, must not drive the tools). The
 * token is read from the `Authorization` header only, never from the URL, where logs keep it.
 */
export function checkAccess(
  request: IncomingMessage,
  token: string | undefined,
  ownOrigins: ReadonlySet<string>,
  loopbackBind = false,
): Refusal | undefined {
  // Node keeps the first Host or Authorization of a request and drops the rest, while a proxy in
  // front may act on the last: a request naming either twice is refused rather than read one way.
  for (const name of SINGLE_HEADERS) {
    if ((request.headersDistinct[name]?.length ?? 0) > 1) {
      return { status: 400, message: `Bad request: the ${name} header appears more than once.` };
    }
  }
  if (loopbackBind && !namesLoopback(request.headers.host)) {
    return { status: 403, message: `Forbidden: this server answers only to a loopback name, not ${JSON.stringify(request.headers.host ?? '')}.` };
  }
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

/**
 * A DNS-rebound page reaches a loopback server under the attacker's name, and a browser need not
 * send an Origin with every request, so the Host must name loopback too. Any port: a tunnel may
 * forward another one.
 */
function namesLoopback(host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const name = new URL(`http://${host}`).hostname;
    return isLoopback(name.startsWith('[') ? name.slice(1, -1) : name);
  } catch {
    return false;
  }
}

/** The origins a browser would send for pages served by this very server. */
export function ownOriginsOf(host: string, port: number): ReadonlySet<string> {
  const names =
    host === '127.0.0.1' || host === 'localhost' || host === '::1' ? ['127.0.0.1', 'localhost', '[::1]'] : [host.includes(':') ? `[${host}]` : host];
  return new Set(names.map((name) => `http://${name}:${port}`.toLowerCase()));
}
