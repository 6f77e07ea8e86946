import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { isLoopback } from '@libos/mcp';
import { UsageError } from '../usage-error.js';

/** What `libos serve` listens on and whom it lets in (apps/cli/README.md). */
export interface HttpOptions {
  readonly host: string;
  readonly port: number;
  /** The bearer token every request must carry; undefined only with `--single-user` on loopback. */
  readonly token: string | undefined;
  /** Where the token came from, for the start-up line. */
  readonly tokenSource: 'file' | 'environment' | 'generated' | 'none';
  readonly sessionIdleMs: number;
  readonly maxSessions: number;
  /** How long shutdown waits for replies still unwritten (a client that never reads) before ending their sessions. */
  readonly drainMs: number;
  /** How long a new connection has to send a request with the token before it is closed. */
  readonly authenticationTimeoutMs: number;
}

interface HttpFlagValues {
  readonly http?: string | undefined;
  readonly 'token-file'?: string | undefined;
  readonly 'session-idle-seconds'?: string | undefined;
  readonly 'max-sessions'?: string | undefined;
  readonly 'drain-seconds'?: string | undefined;
  readonly 'auth-timeout-seconds'?: string | undefined;
  readonly 'single-user'?: boolean | undefined;
}

const DEFAULT_IDLE_SECONDS = 900;
const DEFAULT_MAX_SESSIONS = 256;
const DEFAULT_DRAIN_SECONDS = 30;
const DEFAULT_AUTH_TIMEOUT_SECONDS = 10;

/** `HOST:PORT`, `[V6]:PORT` or `:PORT` / `PORT` (loopback). Port 0 picks a free port. */
export function parseListenAddress(command: string, text: string): { host: string; port: number } {
  const match = /^(?:\[(?<v6>[^\]]+)\]|(?<host>[^:]*)):(?<port>\d+)$/u.exec(text) ?? /^(?<port>\d+)$/u.exec(text);
  const port = Number(match?.groups?.port);
  if (match === null || !Number.isInteger(port) || port > 65535) {
    throw new UsageError(`${command}: --http must be HOST:PORT (for example 127.0.0.1:8787), not '${text}'`);
  }
  const host = match.groups?.v6 ?? (match.groups?.host === undefined || match.groups.host === '' ? '127.0.0.1' : match.groups.host);
  if (host !== 'localhost' && isIP(host) === 0) {
    throw new UsageError(`${command}: --http needs an IP address or localhost, not '${host}'`);
  }
  return { host, port };
}

function positiveInteger(command: string, flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/u.test(text) || !Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`${command}: ${flag} must be a whole number of at least 1, not '${text}'`);
  }
  return value;
}

/**
 * The token is the first line of `--token-file`, else `LIBOS_TOKEN`, else one generated for this
 * run (and printed in the start-up line). Loopback is shared by every user of the machine, so a
 * server without a token needs `--single-user`, the operator's word that no other local user can
 * connect, and even then only on loopback: the tools read and write files as the server's user.
 */
export async function httpOptionsFrom(command: string, values: HttpFlagValues, environment: NodeJS.ProcessEnv): Promise<HttpOptions> {
  if (values.http === undefined) throw new UsageError(`${command}: --http HOST:PORT is required (for example --http 127.0.0.1:8787)`);
  const { host, port } = parseListenAddress(command, values.http);
  let token: string | undefined;
  if (values['token-file'] !== undefined) {
    const file = values['token-file'];
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`${command}: --token-file ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    });
    token = text.split(/\r?\n/u)[0]!.trim();
    if (token === '') throw new UsageError(`${command}: --token-file ${file}: the first line is empty`);
  } else if (environment.LIBOS_TOKEN !== undefined && environment.LIBOS_TOKEN.trim() !== '') {
    token = environment.LIBOS_TOKEN.trim();
  }
  const given = values['token-file'] !== undefined ? 'file' : token === undefined ? undefined : 'environment';
  if (values['single-user'] === true && given !== undefined) {
    throw new UsageError(`${command}: --single-user serves without a token; do not give one (--token-file or LIBOS_TOKEN) as well`);
  }
  // Another host never gets a token it was not given: a generated one is for loopback clients.
  if (given === undefined && !isLoopback(host)) {
    throw new UsageError(
      `${command}: refusing to serve ${host} (reachable from other hosts) without a token: pass --token-file FILE or set LIBOS_TOKEN`,
    );
  }
  const tokenSource = given ?? (values['single-user'] === true ? 'none' : 'generated');
  if (tokenSource === 'generated') token = randomBytes(24).toString('base64url');
  return {
    host,
    port,
    token,
    tokenSource,
    sessionIdleMs: positiveInteger(command, '--session-idle-seconds', values['session-idle-seconds'], DEFAULT_IDLE_SECONDS) * 1000,
    maxSessions: positiveInteger(command, '--max-sessions', values['max-sessions'], DEFAULT_MAX_SESSIONS),
    drainMs: positiveInteger(command, '--drain-seconds', values['drain-seconds'], DEFAULT_DRAIN_SECONDS) * 1000,
    authenticationTimeoutMs: positiveInteger(command, '--auth-timeout-seconds', values['auth-timeout-seconds'], DEFAULT_AUTH_TIMEOUT_SECONDS) * 1000,
  };
}
