import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { temporaryDirectory } from './libos-binary.js';

export const HAPROXY = '/usr/sbin/haproxy';

/** Why the fleet tests cannot run here ("" when they can). */
export const balancerMissing = existsSync(HAPROXY) ? '' : 'haproxy is not installed (tooling/haproxy/install-haproxy.sh)';

/** A running HAProxy on loopback, round-robin per request over `servers`. */
export interface Balancer {
  readonly url: URL;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts HAProxy in front of `servers` (`host:port`): every request is balanced on its own (the
 * server side closes after each), each answer names its instance in `x-served-by`, a server that
 * refuses connections is taken out by the health check and its requests redispatched.
 */
export async function startBalancer(servers: readonly string[]): Promise<Balancer> {
  const directory = await temporaryDirectory('libos-haproxy-');
  const port = await freePort();
  const config = join(directory.path, 'haproxy.cfg');
  await writeFile(
    config,
    [
      'global',
      '  maxconn 512',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  option http-server-close',
      '  retries 3',
      '  option redispatch 1',
      'frontend fleet',
      `  bind 127.0.0.1:${port}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  http-response set-header x-served-by %s',
      ...servers.map((server, index) => `  server i${index} ${server} check inter 200ms fall 1 rise 2`),
      '',
    ].join('\n'),
  );
  const child = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Ready once it accepts connections.
  for (let attempt = 0; ; attempt++) {
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (attempt > 100 || child.exitCode !== null) throw new Error(`haproxy did not start: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await directory.remove();
    },
  };
}
