import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReviewServer, TOKEN_HEADER, type ReviewServer } from '../src/index.js';
import { openReviewFixture, type ReviewFixture } from './support/review-fixture.js';

function send(
  server: ReviewServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, method, path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A connection from `localAddress` that starts a request and never finishes it. */
function hold(server: ReviewServer, localAddress: string): Promise<Socket> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress });
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write(`GET /api/changes HTTP/1.1\r\nhost: ${hostname}:${port}\r\nx-slow: `);
      resolve(socket);
    });
    socket.once('close', () => resolve(socket));
  });
}

describe('the review server under a flood of connections without the token', { timeout: 60_000 }, () => {
  let fixture: ReviewFixture;
  let server: ReviewServer;
  const held: Socket[] = [];

  beforeEach(async () => {
    fixture = await openReviewFixture();
    server = await startReviewServer({ operations: fixture.overlay, connections: { maxConnections: 32, reservedForAuthenticated: 8 } });
  });
  afterEach(async () => {
    for (const socket of held.splice(0)) socket.destroy();
    await server.close();
    await fixture.close();
  });

  it('holds only a bounded number of them, and the person’s Apply still lands', async () => {
    // `nobody`: 200 connections from 100 loopback addresses, none sending the token.
    for (let index = 0; index < 200; index += 1) held.push(await hold(server, `127.0.${1 + (index % 2)}.${10 + (index % 50)}`));
    // The server closes the surplus at once; a busy machine may take a while to tell every client.
    const open = () => held.filter((socket) => !socket.destroyed && socket.readyState === 'open').length;
    for (let waited = 0; open() > 24 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(open()).toBeLessThanOrEqual(24);

    const own = { [TOKEN_HEADER]: server.token, origin: server.origin, 'content-type': 'application/json' };
    const diff = await send(server, 'GET', '/api/diff?path=src%2Fmain.ts', { [TOKEN_HEADER]: server.token });
    expect(diff.status).toBe(200);
    // The Apply names the version its diff showed, as the page does.
    const shown = JSON.parse(diff.body).versions.map((item: { version: string }) => item.version);
    const applied = await send(server, 'POST', '/api/apply', own, JSON.stringify({ paths: ['src/main.ts'], shown }));
    expect(applied.status).toBe(200);
    expect(JSON.parse(applied.body).applied).toEqual(['src/main.ts']);
  });
});
