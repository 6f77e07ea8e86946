import { afterEach, describe, expect, it } from 'vitest';
import { HEADERS } from './support/http-fixture.js';
import { startGated } from './support/modern-fixture.js';

// A 2025-era HTTP session routes each POST's reply to its response by the client's id. A client
// that sends a second request under the id of one still in flight (JSON-RPC forbids it; a hostile
// or buggy client does it anyway) must not take the first one's answer or leave its response
// open for good: every request is answered on its own response, or refused there.

let served: Awaited<ReturnType<typeof startGated>> | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

interface Message {
  readonly id?: unknown;
  readonly method?: string;
  readonly result?: { readonly isError?: boolean; readonly structuredContent?: Record<string, unknown> };
  readonly error?: { readonly code: number; readonly message: string };
}

/** Reads a POST's response (JSON or SSE) message by message. */
async function* messagesOf(response: Response): AsyncGenerator<Message> {
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    yield (await response.json()) as Message;
    return;
  }
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    const events = buffered.split('\n\n');
    buffered = events.pop()!;
    for (const event of events) {
      const data = /^data: (.*)$/mu.exec(event)?.[1];
      if (data !== undefined) yield JSON.parse(data) as Message;
    }
  }
}

async function openSession(url: URL, headers: Record<string, string>) {
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'dup', version: '0' } },
  };
  const opened = await fetch(url, { method: 'POST', headers, body: JSON.stringify(initialize) });
  await opened.text();
  const session = { ...headers, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
  await (
    await fetch(url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
  ).text();
  return session;
}

const call = (id: unknown, name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('a 2025-era HTTP session, a request id repeated while its first request is in flight', () => {
  it("answers the first request on its own response, and the repeat gets no other request's answer", async () => {
    served = await startGated();
    await served.fixtures.writeFile('a.txt', 'hello\n');
    const headers = await openSession(served.url, { ...HEADERS, authorization: 'Bearer tok' });

    // The first request waits on an approval: its response is an SSE stream holding the question.
    const first = await fetch(served.url, { method: 'POST', headers, body: call(7, 'write_text_file', { path: 'gated/x.txt', content: 'x' }) });
    const firstMessages = messagesOf(first);
    const question = (await firstMessages.next()).value as Message;
    expect(question.method).toBe('elicitation/create');

    // The same id again, while the first is in flight.
    const repeat = await fetch(served.url, { method: 'POST', headers, body: call(7, 'read_text_file', { path: 'a.txt' }) });
    const repeated = (await messagesOf(repeat).next()).value as Message;
    expect(repeated.id).toBe(7);
    if (repeated.result !== undefined) expect(repeated.result.structuredContent?.content).toBe('hello\n');
    else expect(repeated.error?.message).toMatch(/in flight/u);

    // The person declines: the first request's own response carries its answer.
    const declined = await fetch(served.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: question.id, result: { action: 'decline' } }),
    });
    expect(declined.status).toBe(202);
    const answer = (await firstMessages.next()).value as Message;
    expect(answer.id).toBe(7);
    expect(answer.result?.isError).toBe(true);
    expect(JSON.stringify(answer.result)).toMatch(/approval_rejected/u);
    expect(await served.fixtures.readFile('gated/x.txt')).toBeNull();
  }, 15_000);
});
