import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { ToolSummary } from '@libos/tools';
import type { ChannelLimits } from '../src/channel-limits.js';
import { createMcpServer } from '../src/create-mcp-server.js';
import type { McpProcess } from '../src/mcp-runtime.js';
import { MessageChannel } from '../src/message-channel.js';
import { openMcpSession } from '../src/open-mcp-session.js';
import { lineOf, type SerializedMessage } from '../src/serialized-message.js';
import { fakeRuntime } from './support/fake-runtime.js';

const bigTool: ToolSummary = {
  name: 'big',
  title: 'Big',
  description: 'Returns `size` backslashes.',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object' },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** A sink whose writes settle only when the test says so: a client that reads when told. */
function controlledSink() {
  const written: { message: Record<string, unknown>; bytes: number; settle: () => void }[] = [];
  let autoSettle = true;
  return {
    written,
    sink: (_message: JSONRPCMessage, serialized: SerializedMessage) =>
      new Promise<void>((resolve) => {
        const line = lineOf(serialized);
        // The size the channel counted is the size of the bytes a stream is given, newline included.
        expect(line.length).toBe(serialized.bytes);
        written.push({ message: JSON.parse(line.toString('utf8')) as Record<string, unknown>, bytes: line.length, settle: resolve });
        if (autoSettle) resolve();
      }),
    stopReading() {
      autoSettle = false;
    },
    readAll() {
      autoSettle = true;
      for (const entry of written) entry.settle();
    },
  };
}

/** Lets every pending promise chain run (the SDK answers a few microtask hops later). */
async function settle(): Promise<void> {
  for (let round = 0; round < 20; round += 1) await new Promise((resolve) => setImmediate(resolve));
}

async function harness(process: McpProcess, limits: Partial<ChannelLimits> = {}) {
  const output = controlledSink();
  // The session pipeline stdio and HTTP use: the channel runs each tools/call itself, the SDK the rest.
  const { channel } = await openMcpSession({ runtime: fakeRuntime([bigTool], process), process, sink: output.sink, log: () => {}, limits });
  const send = (value: unknown) => channel.receiveLine(typeof value === 'string' ? value : JSON.stringify(value));
  const answerTo = (id: unknown) =>
    output.written.find((entry) => Object.is(entry.message.id, id) && ('result' in entry.message || 'error' in entry.message))?.message;
  return { channel, output, send, answerTo };
}

const echo: McpProcess = { call: async (_name, args) => ({ ok: true, result: { args } }) };

describe('MessageChannel answers every request exactly as docs/mcp.md lists', () => {
  it.each([1e308, null, 'x', 2 ** 53 + 2, -0.5, 7])('answers a request with id %s under that id', async (id) => {
    const { send, answerTo } = await harness(echo);
    send({ jsonrpc: '2.0', id, method: 'ping' });
    await settle();
    expect(answerTo(id)).toEqual({ jsonrpc: '2.0', id, result: {} });
  });

  it('answers a line that is not JSON with -32700 and id null', async () => {
    const { send, output } = await harness(echo);
    send('{"jsonrpc":"2.0","id":1,"method":');
    await settle();
    expect(output.written.map((entry) => entry.message)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } },
    ]);
  });

  it('refuses a batch under each of its ids, and a batch of no request once with id null', async () => {
    const { send, output } = await harness(echo);
    send([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
    ]);
    send([]);
    await settle();
    expect(output.written.map((entry) => [entry.message.id, (entry.message.error as { code: number }).code])).toEqual([
      [1, -32600],
      ['b', -32600],
      [null, -32600],
    ]);
  });

  it.each([
    ['a number', 5, null, -32600],
    ['no method, result or error', { jsonrpc: '2.0', id: 3 }, 3, -32600],
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 4, method: 'ping' }, 4, -32600],
    ['a method that is not a string', { jsonrpc: '2.0', id: 5, method: 9 }, 5, -32600],
    ['an id that is an object', { jsonrpc: '2.0', id: {}, method: 'ping' }, null, -32600],
    ['params that are an array', { jsonrpc: '2.0', id: 6, method: 'ping', params: [1] }, 6, -32602],
    ['an unknown top-level key', { jsonrpc: '2.0', id: 7, method: 'ping', extra: 1 }, 7, -32600],
    ['an unknown method', { jsonrpc: '2.0', id: 8, method: 'no/such' }, 8, -32601],
  ])('answers %s with an error', async (_label, message, id, code) => {
    const { send, answerTo } = await harness(echo);
    send(message);
    await settle();
    expect(answerTo(id)).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
  });

  it('answers nothing to a notification or a stray response', async () => {
    const { send, output } = await harness(echo);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 99, result: {} });
    send({ jsonrpc: '2.0', method: 'notifications/whatever', params: [1] });
    await settle();
    expect(output.written).toEqual([]);
  });

  it.each([[[1, 2]], ['text'], [null], [5]])('gives tools/call with arguments %j the tool failure invalid_arguments', async (callArguments) => {
    const seen: unknown[] = [];
    const process: McpProcess = {
      call: async (_name, args) => {
        seen.push(args);
        return { ok: false, error: { code: 'invalid_arguments', message: 'The arguments must be a plain JSON object.', effect: 'none' } };
      },
    };
    const { send, answerTo } = await harness(process);
    send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: callArguments } });
    await settle();
    expect(seen).toEqual([callArguments]);
    const answer = answerTo(1) as { result: { isError: boolean; content: { text: string }[] } };
    expect(answer.result.isError).toBe(true);
    expect(JSON.parse(answer.result.content[0]!.text)).toMatchObject({ error: { code: 'invalid_arguments', effect: 'none' } });
  });
});

describe('MessageChannel bounds', () => {
  it('replaces a reply over maxReplyBytes with result_too_large that says how to narrow the call', async () => {
    const process: McpProcess = { call: async () => ({ ok: true, result: { text: '\\'.repeat(400_000) } }) };
    const { send, answerTo, output } = await harness(process, { maxReplyBytes: 1_000_000 });
    send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: {} } });
    await settle();
    const answer = answerTo(1) as { result: { isError: boolean; content: { text: string }[]; structuredContent?: unknown } };
    expect(answer.result.isError).toBe(true);
    expect(answer.result.structuredContent).toBeUndefined();
    const failure = JSON.parse(answer.result.content[0]!.text) as {
      error: { code: string; message: string; effect: string; details: { reply_bytes: number } };
    };
    expect(failure.error).toMatchObject({ code: 'result_too_large', effect: 'none', details: { max_reply_bytes: 1_000_000 } });
    // 400,000 backslashes: 800,000 bytes as structuredContent, 1,600,000 more as the escaped text;
    // counted exactly, as the reply would have been written.
    const result = { text: '\\'.repeat(400_000) };
    const wouldBe = { result: { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result }, jsonrpc: '2.0', id: 1 };
    expect(failure.error.details.reply_bytes).toBe(Buffer.byteLength(JSON.stringify(wouldBe)) + 1);
    expect(failure.error.message).toMatch(/limit or max_bytes/u);
    expect(Math.max(...output.written.map((entry) => entry.bytes))).toBeLessThanOrEqual(1_000_000);
  });

  it('stops reading at maxCallsInFlight and reads on as calls finish', async () => {
    const finish: (() => void)[] = [];
    const process: McpProcess = {
      call: () => new Promise((resolve) => finish.push(() => resolve({ ok: true, result: {} }))),
    };
    const { channel, send, output } = await harness(process, { maxCallsInFlight: 3 });
    for (let id = 1; id <= 3; id += 1) send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'big', arguments: {} } });
    await settle();
    expect(channel.callsInFlight).toBe(3);
    expect(channel.readable).toBe(false);
    let readable = false;
    void channel.whenReadable().then(() => (readable = true));
    await settle();
    expect(readable).toBe(false);
    finish.shift()!();
    await settle();
    expect(readable).toBe(true);
    expect(output.written).toHaveLength(1);
  });

  it('stops reading at maxUnwrittenBytes while the client reads nothing, and drains once it reads', async () => {
    const process: McpProcess = { call: async () => ({ ok: true, result: { text: 'x'.repeat(10_000) } }) };
    const { channel, send, output } = await harness(process, { maxUnwrittenBytes: 50_000, maxCallsInFlight: 100 });
    output.stopReading();
    let sent = 0;
    while (channel.readable && sent < 1000) {
      sent += 1;
      send({ jsonrpc: '2.0', id: sent, method: 'tools/call', params: { name: 'big', arguments: {} } });
      await settle();
    }
    expect(sent).toBeLessThan(10);
    expect(channel.unwrittenBytes).toBeGreaterThanOrEqual(50_000);
    channel.endOfInput();
    let drained = false;
    void channel.drained().then(() => (drained = true));
    await settle();
    expect(drained).toBe(false);
    output.readAll();
    await settle();
    expect(drained).toBe(true);
    expect(output.written).toHaveLength(sent);
  });

  it('holds requests read past the bounds and answers every one of them before it drains', async () => {
    const finish: (() => void)[] = [];
    const process: McpProcess = { call: () => new Promise((resolve) => finish.push(() => resolve({ ok: true, result: {} }))) };
    const { channel, send, output } = await harness(process, { maxCallsInFlight: 1 });
    // A reader that ignores back-pressure (an HTTP body already read) still loses nothing.
    for (let id = 1; id <= 5; id += 1) send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'big', arguments: {} } });
    channel.endOfInput();
    await settle();
    expect(channel.parkedRequests).toBe(4);
    let drained = false;
    void channel.drained().then(() => (drained = true));
    while (finish.length > 0) {
      finish.shift()!();
      await settle();
    }
    expect(drained).toBe(true);
    expect(output.written.map((entry) => entry.message.id)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('MessageChannel cancellation and the questions it asks the client', () => {
  it('aborts a cancelled call where it waits and still answers it', async () => {
    const process: McpProcess = {
      call: (_name, _args, options) =>
        new Promise((resolve) => {
          options?.signal?.addEventListener('abort', () =>
            resolve({ ok: false, error: { code: 'approval_required', message: 'Cancelled.', effect: 'none' } }),
          );
        }),
    };
    const { channel, send, answerTo } = await harness(process, { maxCallsInFlight: 1 });
    send({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'big', arguments: {} } });
    await settle();
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a', reason: 'user' } });
    await settle();
    expect((answerTo('a') as { result: { isError: boolean } }).result.isError).toBe(true);
    expect(channel.callsInFlight).toBe(0);
    expect(channel.readable).toBe(true);
  });

  it('reads on while the server waits on the client, and fails its open questions at end of input', async () => {
    const output = controlledSink();
    const channel = new MessageChannel({ sink: output.sink, limits: { maxCallsInFlight: 1 } });
    let server: ReturnType<typeof createMcpServer> | undefined;
    const asking: McpProcess = {
      call: async () => {
        const ask = { mode: 'form' as const, message: 'ok?', requestedSchema: { type: 'object' as const, properties: {} } };
        const answer = await server!.elicitInput(ask).then(
          (result) => result.action,
          (error: Error) => error.message,
        );
        return { ok: true, result: { answer } };
      },
    };
    server = createMcpServer(fakeRuntime([bigTool], asking));
    await server.connect(channel);
    const initialize = { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '0' } };
    channel.receiveLine(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize }));
    channel.receiveLine(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: {} } }));
    await settle();
    expect(output.written.at(-1)?.message).toMatchObject({ method: 'elicitation/create' });
    // The one call slot is taken, but the client's answer may sit behind more requests: read on, holding them.
    expect(channel.callsInFlight).toBe(1);
    expect(channel.readable).toBe(true);
    channel.receiveLine(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'big', arguments: {} } }));
    expect(channel.parkedRequests).toBe(1);
    channel.endOfInput();
    await channel.drained();
    const answers = output.written.filter((entry) => 'result' in entry.message).map((entry) => entry.message);
    expect(answers.map((answer) => [answer.id, (answer.result as { structuredContent?: { answer: string } }).structuredContent?.answer])).toEqual([
      [0, undefined],
      [1, expect.stringMatching(/closed its input/u)],
      [2, expect.stringMatching(/closed its input/u)],
    ]);
  });
});
