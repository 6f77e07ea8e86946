import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { maxMessageBytes } from '../src/channel-limits.js';
import { describeTools } from '@libos/tools';
import { connectHttp, GENERATIONS } from './support/generations.js';
import { callTool, HEADERS, rawConnection, startHttp } from './support/http-fixture.js';

/** The headers of a POST declaring the largest body the server reads, and not one byte of it. */
function headersOnly(url: URL, extra: Record<string, string>): string {
  const headers = { ...HEADERS, ...extra, 'content-length': String(maxMessageBytes(describeTools().bounds.arguments_max_bytes)) };
  return `POST /mcp HTTP/1.1\r\nhost: ${url.host}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n')}\r\n\r\n`;
}

/** Everything the server writes on `socket` until it closes it. */
function readUntilClosed(socket: Socket): Promise<string> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

describe.each(GENERATIONS)('bodies that never come, against a %s client', (generation) => {
  it("hold none of the body budget: other clients' POSTs (a new session or a sessionless call) are answered", async () => {
    const fixture = await startHttp({ 'a.txt': 'hello' });
    const attackers: Socket[] = [];
    try {
      const { headers } = await fixture.openSession();
      // Eight connections (the budget is eight of the largest bodies) and then eight more.
      for (let index = 0; index < 16; index += 1) {
        const socket = await rawConnection(fixture.url);
        socket.on('error', () => {});
        socket.write(headersOnly(fixture.url, index % 2 === 0 ? {} : { 'mcp-session-id': headers['mcp-session-id'] }));
        attackers.push(socket);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      // A client of this generation connects (2025: initialize; 2026-07-28: none) and is answered.
      const victim = await connectHttp(fixture.url, generation);
      const read = await victim.exchange({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'read_text_file', arguments: { path: 'a.txt' } },
      });
      expect(read.status).toBe(200);
      expect(read.answers[0]?.result?.structuredContent).toMatchObject({ content: 'hello' });
      // And the session the attack named goes on too.
      const inSession = await callTool(fixture.url, headers, 2, 'read_text_file', { path: 'a.txt' });
      expect(inSession.message.result?.structuredContent).toMatchObject({ content: 'hello' });
    } finally {
      for (const socket of attackers) socket.destroy();
      await fixture.close();
    }
  });
});

describe('bodies that never come', () => {
  // The body deadline runs before any byte of the body is read, so before a generation is known: one test for both.
  it('are answered 408 and their connection closed once the body deadline passes', async () => {
    const fixture = await startHttp({}, { bodyTimeoutMs: 1000 });
    try {
      const socket = await rawConnection(fixture.url);
      const seen = readUntilClosed(socket);
      socket.write(headersOnly(fixture.url, {}));
      const text = await seen;
      expect(text).toMatch(/^HTTP\/1\.1 408 /u);
      expect(text).toContain('the body did not arrive in time');
    } finally {
      await fixture.close();
    }
  });
});
