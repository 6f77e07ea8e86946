import { isIP } from 'node:net';

/** True for 127.0.0.0/8, ::1 and `localhost`: addresses no other host can reach. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}
