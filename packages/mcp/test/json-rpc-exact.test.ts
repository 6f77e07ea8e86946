import { afterEach, describe, expect, it } from 'vitest';
import { EVERY_WAY, MODERN, type Served, serve } from './support/generations.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const READ = { name: 'read_text_file', arguments: { path: 'a.txt' } };

describe.each(EVERY_WAY)('JSON-RPC is exact, $generation over $transport', ({ generation, transport }) => {
  const open = async () => {
    served = await serve(transport, { files: { 'a.txt': 'hello' } });
    return served.connect(generation);
  };

  it('answers every request under its own id, whatever the id', async () => {
    const connection = await open();
    for (const id of [1e308, null, 'x', 2 ** 53 + 2, -0.5, 7, 'x']) {
      const answer = await connection.request({ jsonrpc: '2.0', id, method: 'tools/call', params: READ });
      expect(answer).toMatchObject({ jsonrpc: '2.0', id, result: { structuredContent: { content: 'hello' } } });
    }
  });

  it.each([
    ['a number', 5, null, -32600],
    ['no method, result or error', { jsonrpc: '2.0', id: 3 }, 3, -32600],
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 4, method: 'tools/list' }, 4, -32600],
    ['a method that is not a string', { jsonrpc: '2.0', id: 5, method: 9 }, 5, -32600],
    ['an id that is an object', { jsonrpc: '2.0', id: {}, method: 'tools/list' }, null, -32600],
    ['an unknown top-level key', { jsonrpc: '2.0', id: 7, method: 'tools/list', extra: 1 }, 7, -32600],
    ['an unknown method', { jsonrpc: '2.0', id: 8, method: 'no/such' }, 8, -32601],
  ])('answers %s with an error under its id', async (_label, message, id, code) => {
    const connection = await open();
    const { answers } = await connection.exchange(message);
    expect(answers).toEqual([expect.objectContaining({ jsonrpc: '2.0', id, error: expect.objectContaining({ code }) })]);
  });

  it.each([[[1, 2]], ['text'], [null], [5]])('gives tools/call with arguments %j the tool failure invalid_arguments', async (callArguments) => {
    const connection = await open();
    const answer = await connection.request({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'read_text_file', arguments: callArguments },
    });
    expect(answer.result?.isError).toBe(true);
    expect(JSON.parse(answer.result?.content?.[0]?.text ?? '{}')).toMatchObject({ error: { code: 'invalid_arguments', effect: 'none' } });
  });

  it('answers nothing to a notification, and accepts it over HTTP with 202', async () => {
    const connection = await open();
    const exchanged = await connection.exchange({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    expect(exchanged.answers).toEqual([]);
    if (transport === 'http') expect(exchanged.status).toBe(202);
  });

  // A response carries no `_meta`, so it cannot claim 2026-07-28: over HTTP it is a 2025-era message,
  // and without a session (a 2026-07-28 client has none) it is refused 400 under no id, as the
  // transport allows; inside a session (and on stdio) it is taken silently.
  const sessionless = generation === MODERN && transport === 'http';
  it(sessionless ? 'refuses a stray response 400 with no id (no session to take it)' : 'answers nothing to a stray response', async () => {
    const connection = await open();
    const exchanged = await connection.exchange({ jsonrpc: '2.0', id: 99, result: {} });
    if (!sessionless) {
      expect(exchanged.answers).toEqual([]);
      if (transport === 'http') expect(exchanged.status).toBe(202);
      return;
    }
    expect(exchanged.status).toBe(400);
    expect(exchanged.answers).toEqual([expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) })]);
  });
});

// A message that is not JSON, a batch, or params that are not an object cannot carry the `_meta`
// that makes a request 2026-07-28: such bytes are answered alike whichever generation sent them.
describe.each(EVERY_WAY)('bytes no generation can claim, on a $generation connection over $transport', ({ generation, transport }) => {
  it('are answered -32700 (id null), -32600 per request of a batch, -32602 for params not an object', async () => {
    served = await serve(transport, { files: { 'a.txt': 'hello' } });
    const connection = await served.connect(generation);
    const notJson = await connection.exchange('{"jsonrpc":"2.0","id":1,"method":');
    expect(notJson.answers).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } }]);
    const batch = await connection.exchange([
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
    ]);
    expect(batch.answers.map((answer) => [answer.id, answer.error?.code])).toEqual([
      [1, -32600],
      ['b', -32600],
    ]);
    const empty = await connection.exchange([]);
    expect(empty.answers.map((answer) => [answer.id, answer.error?.code])).toEqual([[null, -32600]]);
    const arrayParams = await connection.exchange({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: [1] });
    expect(arrayParams.answers.map((answer) => [answer.id, answer.error?.code])).toEqual([[6, -32602]]);
    // The connection goes on: a request of its generation is answered after all of that.
    expect(await connection.request({ jsonrpc: '2.0', id: 'after', method: 'tools/call', params: READ })).toMatchObject({
      result: { structuredContent: { content: 'hello' } },
    });
    if (generation === MODERN && transport === 'http') expect(served.http?.sessionCount).toBe(0);
  });
});
