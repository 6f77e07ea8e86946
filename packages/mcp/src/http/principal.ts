import { createHash } from 'node:crypto';

/**
 * Who a request that passed the access check speaks for. One token is one principal: its SHA-256
 * names it (never the token itself, which no record or state may carry); without a token the server
 * serves its single user. 2026-07-28 approvals and process handles are bound to it.
 */
export function principalOf(token: string | undefined): string {
  if (token === undefined) return 'single-user';
  return `token:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
}
