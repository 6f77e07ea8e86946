import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import type { ToolSummary } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import type { McpProcess } from '../src/mcp-runtime.js';
import { fakeRuntime } from './support/fake-runtime.js';
import { answersIn, asGeneration, HEADERS, LEGACY, MODERN, serve } from './support/generations.js';
import { rawConnection, rawPost } from './support/http-fixture.js';

const TOKEN = 'secret';
const AUTHORIZED = { ...HEADERS, authorization: `Bearer ${TOKEN}` };

const tool = (name: string): ToolSummary => ({
  name,
  title: name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object' },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
});

/** A process whose `slow` calls wait until the test opens the gate (or the call is abandoned); `fast` answers at once. */
function gatedProcess() {
  let opened: () => void = () => {};
  const gate = new Promise<void>((resolve) => (opened = resolve));
  const counts = { started: 0, running: 0, peak: 0 };
  const process: McpProcess = {
    async call(name, _args, options) {
      if (name !== 'slow') return { ok: true, result: { fast: true } };
      counts.started += 1;
      counts.running += 1;
      counts.peak = Math.max(counts.peak, counts.running);
      await Promise.race([gate, new Promise((resolve) => options?.signal?.addEventListener('abort', resolve))]);
      counts.running -= 1;
      return { ok: true, result: { slow: true } };
    },
  };
  return { process, counts, open: () => opened() };
}

/** The exact bytes of a tools/call POST under revision 2026-07-28. */
function modernCall(url: URL, id: number, name: string): string {
  const body = JSON.stringify(asGeneration(MODERN, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }));
  return rawPost(url, { ...AUTHORIZED, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name }, body);
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('2026-07-28 calls in flight over HTTP (no session to bound)', () => {
  it('a client pipelining slow calls on many connections holds a bounded number, and other clients are answered meanwhile', async () => {
    const { process, counts, open } = gatedProcess();
    const limits = { perConnection: 4, total: 6, waitingPerConnection: 8 };
    const served = await serve('http', {
      runtime: fakeRuntime([tool('slow'), tool('fast')], process),
      http: { token: TOKEN, modernCallLimits: limits },
    });
    const url = served.url!;
    const attackers: Socket[] = [];
    const received: string[] = [];
    try {
      // Five connections, each pipelining 100 slow calls it will never see answered while they wait.
      for (let index = 0; index < 5; index += 1) {
        const socket = await rawConnection(url);
        socket.on('error', () => {});
        const slot = received.push('') - 1;
        socket.on('data', (chunk: Buffer) => (received[slot] += chunk.toString('latin1')));
        socket.write(Array.from({ length: 100 }, (_, call) => modernCall(url, index * 1000 + call, 'slow')).join(''));
        attackers.push(socket);
      }
      await settle(1500);
      // At most each connection's first call plus `total` more ran; without a bound all 500 would.
      expect(counts.running).toBeGreaterThanOrEqual(5);
      expect(counts.peak).toBeLessThanOrEqual(5 + limits.total);

      // Another client of either generation is answered while the attacker holds all of that.
      for (let id = 1; id <= 5; id += 1) {
        const body = asGeneration(MODERN, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'fast', arguments: {} } });
        const headers = { ...AUTHORIZED, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'fast' };
        const answered = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
        expect(answersIn(await answered.text())[0]).toMatchObject({ id, result: { structuredContent: { fast: true } } });
      }
      const legacy = await served.connect(LEGACY, { authorization: `Bearer ${TOKEN}` });
      expect(await legacy.request({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'fast', arguments: {} } })).toMatchObject({
        result: { structuredContent: { fast: true } },
      });

      // Once the calls end, every one taken is answered; what a connection pipelined past its
      // waiting room was refused 503 (and that connection closed), never held.
      open();
      await settle(1500);
      const oks = received.map((text) => text.match(/^HTTP\/1\.1 200 /gmu)?.length ?? 0);
      const busy = received.map((text) => text.match(/^HTTP\/1\.1 503 /gmu)?.length ?? 0);
      expect(counts.started).toBe(oks.reduce((sum, count) => sum + count, 0));
      for (const [index, count] of oks.entries()) {
        expect(count).toBeLessThanOrEqual(limits.perConnection + limits.waitingPerConnection);
        expect(busy[index]).toBeGreaterThanOrEqual(1);
      }
      expect(counts.running).toBe(0);
    } finally {
      open();
      for (const socket of attackers) socket.destroy();
      await served.close();
    }
  }, 60_000);

  it('answers 32 clients x 50 calls from one address behind one token, all of them', async () => {
    const served = await serve('http', { files: { 'a.txt': 'hello' }, http: { token: TOKEN, modernCallLimits: { perConnection: 2, total: 4 } } });
    const url = served.url!;
    const headers = { ...AUTHORIZED, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'read_text_file' };
    // Each client keeps a few connections alive and sends all its calls at once over them.
    const client = (index: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      const calls = Array.from({ length: 50 }, (_, call) => {
        const body = JSON.stringify(
          asGeneration(MODERN, {
            jsonrpc: '2.0',
            id: index * 100 + call,
            method: 'tools/call',
            params: { name: 'read_text_file', arguments: { path: 'a.txt' } },
          }),
        );
        return new Promise<string>((resolve, reject) => {
          const sent = httpRequest(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (text += chunk));
            response.on('end', () => resolve(`${response.statusCode} ${text}`));
          });
          sent.on('error', reject);
          sent.end(body);
        });
      });
      return Promise.all(calls).finally(() => agent.destroy());
    };
    try {
      const answers = (await Promise.all(Array.from({ length: 32 }, (_, index) => client(index)))).flat();
      expect(answers).toHaveLength(1600);
      expect(answers.filter((answer) => answer.startsWith('200 ') && answer.includes('"content":"hello"'))).toHaveLength(1600);
    } finally {
      await served.close();
    }
  }, 120_000);
});
