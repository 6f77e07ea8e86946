import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectionGuardOptions, guardConnections } from '../src/guard-connections.js';

const TOKEN = 'secret';
const servers: Server[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server that answers `ok` to a request with the token (and marks its connection), 401 otherwise. */
async function start(options: ConnectionGuardOptions) {
  const server = createServer({ keepAliveTimeout: 60_000 });
  const guard = guardConnections(server, options);
  server.on('request', (request, response) => {
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      response.writeHead(401, { connection: 'close' }).end();
      return;
    }
    guard.authenticated(request.socket);
    response.end('ok');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { guard, port: (server.address() as AddressInfo).port };
}

/** A connection from `localAddress` that sends the start of a request and never the rest. */
function hold(port: number, localAddress: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    sockets.push(socket);
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write('GET / HTTP/1.1\r\nhost: x\r\nx-slow: ');
      resolve(socket);
    });
    socket.once('close', () => resolve(socket));
  });
}

function get(port: number, agent: Agent | false, localAddress = '127.0.0.1'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, localAddress, agent, headers: { authorization: `Bearer ${TOKEN}` } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('guardConnections', () => {
  it('lets the token holder in while connections from many 127.x addresses, reopened as they close, hold every waiting slot', async () => {
    const { guard, port } = await start({ maxConnections: 24, reservedForAuthenticated: 4, authenticationTimeoutMs: 30_000 });
    // The attacker: 60 sources, each reopening its connection as soon as the server closes it.
    let attacking = true;
    const attack = async (index: number) => {
      while (attacking) {
        const socket = await hold(port, `127.0.${1 + Math.floor(index / 200)}.${2 + (index % 200)}`);
        await new Promise((resolve) => (socket.destroyed ? resolve(undefined) : socket.once('close', resolve)));
      }
    };
    const attackers = Array.from({ length: 60 }, (_, index) => attack(index));
    try {
      // However long the flood takes to fill every waiting slot on a busy machine.
      while (guard.unauthenticatedCount < guard.maxUnauthenticated) await new Promise((resolve) => setTimeout(resolve, 20));
      // A fresh connection per request: each has to get past the flood.
      for (let index = 0; index < 20; index += 1) expect(await get(port, false)).toEqual({ status: 200, body: 'ok' });
    } finally {
      attacking = false;
      for (const socket of sockets) socket.destroy();
      await Promise.all(attackers);
    }
  }, 60_000);

  it('closes a connection that trickles its headers once the authentication time is up, and keeps an authenticated one', async () => {
    const { port } = await start({ maxConnections: 16, authenticationTimeoutMs: 400 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await get(port, agent)).toEqual({ status: 200, body: 'ok' });
      const [kept] = Object.values(agent.sockets).flat().concat(Object.values(agent.freeSockets).flat());
      const slow = await hold(port, '127.0.0.9');
      const trickle = setInterval(() => slow.write('a'), 50);
      await new Promise((resolve) => slow.once('close', resolve));
      clearInterval(trickle);
      // Well past the window, the authenticated keep-alive connection is the same one, still open.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(kept?.destroyed).toBe(false);
      expect(await get(port, agent)).toEqual({ status: 200, body: 'ok' });
      expect(Object.values(agent.freeSockets).flat()[0]).toBe(kept);
    } finally {
      agent.destroy();
    }
  }, 30_000);

  it('never counts authenticated connections against the unauthenticated bound: 32 from one address at once', async () => {
    const { guard, port } = await start({ maxConnections: 48, reservedForAuthenticated: 40 });
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    try {
      for (let round = 0; round < 5; round += 1) {
        const answers = await Promise.all(Array.from({ length: 32 }, () => get(port, agent)));
        expect(answers.every((answer) => answer.status === 200)).toBe(true);
      }
      expect(guard.maxUnauthenticated).toBe(8);
      expect(guard.authenticatedCount).toBeGreaterThan(8);
    } finally {
      agent.destroy();
    }
  }, 30_000);

  it('refuses a new connection only when authenticated connections hold every slot', async () => {
    const { guard, port } = await start({ maxConnections: 4, reservedForAuthenticated: 2 });
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    try {
      await Promise.all(Array.from({ length: 4 }, () => get(port, agent)));
      expect(guard.authenticatedCount).toBe(4);
      await expect(get(port, false)).rejects.toThrow();
    } finally {
      agent.destroy();
    }
  });

  it('refuses bounds that leave no room', () => {
    const server = createServer();
    expect(() => guardConnections(server, { maxConnections: 4, reservedForAuthenticated: 4 })).toThrow(RangeError);
    expect(() => guardConnections(server, { maxConnections: 1 })).toThrow(RangeError);
  });
});
