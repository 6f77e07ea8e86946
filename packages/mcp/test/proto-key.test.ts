import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_WAY, MODERN, serve } from './support/generations.js';

// Typed by hand: JSON.stringify of an object literal would not keep a `__proto__` key.
const ARGUMENTS = '{"path":"a.txt","content":"x","__proto__":{"polluted":true}}';
const META = `{"io.modelcontextprotocol/protocolVersion":"${MODERN}","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}`;
/** The exact bytes of the call: under 2026-07-28 its `_meta` claims the version, written by hand too. */
const callOf = (modern: boolean) =>
  `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write_text_file","arguments":${ARGUMENTS}${modern ? `,"_meta":${META}` : ''}}}`;

let runtime: Awaited<ReturnType<typeof createRuntime>>;
beforeAll(async () => {
  runtime = await createRuntime({ provider: createMemfsProvider() });
});
afterAll(async () => {
  await runtime.close();
});

/** What the library itself answers for the same arguments. */
async function libraryAnswer() {
  const outcome = await runtime.spawn().call('write_text_file', JSON.parse(ARGUMENTS));
  expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
  return (outcome as { error: unknown }).error;
}

describe.each(EVERY_WAY)('a __proto__ key in tools/call arguments, $generation over $transport', ({ generation, transport }) => {
  it('is refused as the library refuses it, and nothing is written', async () => {
    const served = await serve(transport, { runtime });
    try {
      const connection = await served.connect(generation);
      const { answers } = await connection.exchange(callOf(generation === MODERN));
      const reply = answers.find((answer) => answer.id === 2);
      expect(reply?.result?.isError).toBe(true);
      expect((JSON.parse(reply?.result?.content?.[0]?.text ?? '{}') as { error: unknown }).error).toEqual(await libraryAnswer());
      expect(await runtime.spawn().call('read_text_file', { path: 'a.txt' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    } finally {
      await served.close();
    }
  });
});
