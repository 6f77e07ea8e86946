import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from './support/http-serve.js';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let server: ServeProcess;
beforeAll(async () => {
  scratch = await temporaryDirectory();
  server = await startServe(['--root', scratch.path, '--auth-timeout-seconds', '1'], { LIBOS_TOKEN: 'auth-timeout-token' });
});
afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

describe('libos serve --auth-timeout-seconds', () => {
  it('closes a connection that trickles its headers without the token once that time is up, well before the default 10 s', async () => {
    const socket = connect({ host: server.url.hostname, port: Number(server.url.port) });
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /mcp HTTP/1.1\r\nhost: ${server.url.host}\r\nx-slow: `);
    const trickle = setInterval(() => socket.write('a'), 100);
    const started = Date.now();
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(trickle);
    expect(Date.now() - started).toBeLessThan(9_000);
  }, 30_000);

  it('refuses a value that is not a whole number of seconds', async () => {
    for (const value of ['0', 'x', '1.5']) {
      const run = await runLibos(['serve', '--http', '127.0.0.1:0', '--root', scratch.path, '--single-user', '--auth-timeout-seconds', value]);
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('--auth-timeout-seconds must be a whole number');
    }
  });
});
