import { PassThrough } from 'node:stream';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { serveStdio, type StdioSession } from '../src/serve-stdio.js';
import { envelope, type RpcAnswer } from './support/modern-fixture.js';

// A 2026-07-28 `subscriptions/listen` over stdio is a request the SDK keeps open until the client
// cancels it or the connection closes. The channel answers each request once and counts it as a
// call until then: listens must not hold the connection's call slots or keep its end from draining.

type Runtime = Awaited<ReturnType<typeof createRuntime>>;
let opened: { session: StdioSession; runtime: Runtime; input: PassThrough } | undefined;
afterEach(async () => {
  opened?.input.end();
  await opened?.session.close();
  await opened?.runtime.close();
  opened = undefined;
});

async function open() {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.writeFile('a.txt', 'hello\n');
  const runtime = await createRuntime({ provider });
  const input = new PassThrough();
  const output = new PassThrough();
  const answers = new Map<unknown, RpcAnswer>();
  const waiting = new Map<unknown, (answer: RpcAnswer) => void>();
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      const message = JSON.parse(line) as RpcAnswer;
      if (message.id === undefined) continue;
      answers.set(message.id, message);
      waiting.get(message.id)?.(message);
    }
  });
  const session = await serveStdio(runtime, { input, output, log: () => {} });
  opened = { session, runtime, input };
  const answerOf = (id: unknown) =>
    new Promise<RpcAnswer>((resolve) => {
      const known = answers.get(id);
      if (known !== undefined) resolve(known);
      else waiting.set(id, resolve);
    });
  return { session, input, answerOf };
}

const listen = (id: string) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: envelope() } });
const read = (id: string) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'a.txt' }, _meta: envelope() } });

describe('MCP 2026-07-28 subscriptions/listen over stdio', () => {
  it('answers every listen, and a call sent after more listens than the call slots still runs', async () => {
    const served = await open();
    const ids = Array.from({ length: 9 }, (_, index) => `listen-${index}`);
    for (const id of ids) served.input.write(`${listen(id)}\n`);
    served.input.write(`${read('after')}\n`);
    const after = await served.answerOf('after');
    expect(after.result.structuredContent?.content).toBe('hello\n');
    for (const id of ids) {
      const answer = await served.answerOf(id);
      expect(answer.error.code).toBe(-32601);
      expect(answer.error.message).toMatch(/subscriptions\/listen is not served over stdio/u);
    }
  });

  it('finishes once the input ends after a listen (nothing is left in flight)', async () => {
    const served = await open();
    served.input.write(`${listen('only')}\n`);
    await served.answerOf('only');
    served.input.end();
    await served.session.finished;
    await served.session.drained();
  });
});
