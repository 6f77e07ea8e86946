import { describe, expect, it } from 'vitest';
import { fakeRuntime, gatedProcess as gated, slowTool } from './support/fake-runtime.js';
import { GENERATIONS, type Generation, serve } from './support/generations.js';

const SLOW_CALL = { jsonrpc: '2.0', id: 'taken', method: 'tools/call', params: { name: 'slow', arguments: {} } };

describe.each(GENERATIONS)('drain on shutdown, %s', (generation: Generation) => {
  it('over HTTP: a call already taken is answered, a new request gets 503 meanwhile, then the server stops', async () => {
    const { process, started, open } = gated();
    const served = await serve('http', { runtime: fakeRuntime([slowTool], process) });
    const connection = await served.connect(generation);
    const taken = connection.exchange(SLOW_CALL);
    await started;
    let stopped = false;
    const closing = served.close().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stopped).toBe(false);
    const late = await connection.exchange({ jsonrpc: '2.0', id: 'late', method: 'tools/call', params: { name: 'slow', arguments: {} } });
    expect(late.status).toBe(503);
    expect(late.answers).toEqual([expect.objectContaining({ id: 'late', error: expect.objectContaining({ code: -32603 }) })]);
    open();
    const answered = await taken;
    expect(answered.answers.find((answer) => answer.id === 'taken')?.result?.structuredContent).toEqual({ done: true });
    await closing;
  });

  it('over stdio: when input ends, every request read is answered before the session finishes', async () => {
    const { process, started, open } = gated();
    const served = await serve('stdio', { runtime: fakeRuntime([slowTool], process) });
    const connection = await served.connect(generation);
    const taken = connection.exchange(SLOW_CALL);
    await started;
    served.stdio!.input.end();
    open();
    const answered = await taken;
    expect(answered.answers.find((answer) => answer.id === 'taken')?.result?.structuredContent).toEqual({ done: true });
    await served.close();
  });
});
