import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Why a request is refused before any operation runs, with its HTTP status. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
}

/** What the server accepts: its own origin and host names, and the token of this run. */
export interface RequestPolicy {
  /** `http://127.0.0.1:PORT`: the only Origin a state-changing request may carry. */
  readonly origin: string;
  /** Host header values that name this server (DNS rebinding names another host). */
  readonly hosts: ReadonlySet<string>;
  readonly token: string;
}

export const TOKEN_HEADER = 'x-libos-review-token';

/**
 * Checks a request before it reaches a route: a foreign Host (a rebound DNS name) is refused for
 * every path; the API needs the token; anything but GET needs the page's own Origin as well, so a
 * page on another site cannot drive it even from this machine's browser.
 */
export function refusalOf(request: IncomingMessage, policy: RequestPolicy): Refusal | undefined {
  const host = request.headers.host;
  if (host === undefined || !policy.hosts.has(host.toLowerCase())) return { status: 421, message: 'This server answers to its own address only.' };
  const path = (request.url ?? '/').split('?')[0]!;
  if (!path.startsWith('/api/')) return undefined;
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== policy.origin) return { status: 403, message: 'Requests from another origin are refused.' };
  if (!tokenMatches(request.headers[TOKEN_HEADER], policy.token)) {
    return { status: 401, message: 'The review token is missing or wrong: open the address libos review printed.' };
  }
  if (request.method !== 'GET' && origin !== policy.origin) return { status: 403, message: 'A change needs the page’s own Origin.' };
  return undefined;
}

function tokenMatches(given: string | string[] | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
