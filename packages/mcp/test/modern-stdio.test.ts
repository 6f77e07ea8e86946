import { PassThrough } from 'node:stream';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { createElicitationApprover } from '../src/elicitation-approver.js';
import { serveStdio, type StdioSession } from '../src/serve-stdio.js';
import { envelope, type RpcAnswer } from './support/modern-fixture.js';

// 2026-07-28 over stdio: one SDK server is pinned for the connection and each request reaches it
// under an id of the wire's own. These attack that mapping: answers must come back under the
// client's exact ids, each with its own call's result, whatever ids the client picks.

type Runtime = Awaited<ReturnType<typeof createRuntime>>;
let opened: { session: StdioSession; runtime: Runtime; input: PassThrough } | undefined;
afterEach(async () => {
  opened?.input.end();
  await opened?.session.close();
  await opened?.runtime.close();
  opened = undefined;
});

/** A memfs workspace over stdio whose `gated/` needs an `ask` approval to write. */
async function open(files: Record<string, string>) {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.makeDirectory('gated');
  for (const [path, text] of Object.entries(files)) await fixtures.writeFile(path, text);
  const runtime = await createRuntime({
    provider,
    approver: createElicitationApprover(),
    config: {
      grants: [
        { path: '.', tree: true, rights: ['read', 'write'] },
        { path: 'gated', tree: true, rights: ['write'], mode: 'ask' },
      ],
    },
  });
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
      const answer = JSON.parse(line) as RpcAnswer;
      answers.set(answer.id, answer);
      waiting.get(answer.id)?.(answer);
    }
  });
  const session = await serveStdio(runtime, { input, output, log: () => {} });
  opened = { session, runtime, input };
  return {
    fixtures,
    /** Writes one raw line; resolves with the answer under `id`. */
    request(id: unknown, line: string): Promise<RpcAnswer> {
      const answered = new Promise<RpcAnswer>((resolve) => {
        const known = answers.get(id);
        if (known !== undefined) resolve(known);
        else waiting.set(id, resolve);
      });
      input.write(`${line}\n`);
      return answered;
    },
  };
}

const call = (id: unknown, name: string, args: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...extra, _meta: envelope() } });

describe('MCP 2026-07-28 over stdio', () => {
  it('answers calls in flight together under the client ids, each with its own result', async () => {
    const files = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`f${index}.txt`, `file ${index}\n`]));
    const served = await open(files);
    // Ids the wire also mints (1, 2, ...), strings that look like them, and a zero.
    const ids: unknown[] = [2, 1, '1', '2', 0, 'x', 7, 3];
    const answers = await Promise.all(ids.map((id, index) => served.request(id, call(id, 'read_text_file', { path: `f${index}.txt` }))));
    answers.forEach((answer, index) => {
      expect(answer.id).toBe(ids[index]);
      expect(answer.result.structuredContent).toMatchObject({ content: `file ${index}\n` });
    });
  });

  it('refuses a __proto__ key in the arguments as the library does, writing nothing', async () => {
    const served = await open({});
    const line = `{"jsonrpc":"2.0","id":"p","method":"tools/call","params":{"name":"write_text_file","arguments":{"path":"a.txt","content":"x","__proto__":{"polluted":true}},"_meta":${JSON.stringify(envelope())}}}`;
    const answer = await served.request('p', line);
    expect(answer.result.isError).toBe(true);
    expect(JSON.parse(answer.result.content[0]!.text)).toMatchObject({ error: { code: 'invalid_arguments' } });
    expect(await served.fixtures.readFile('a.txt')).toBeNull();
  });

  it('answers server/discover and tools/list with cache hints, and an invalid envelope under its id', async () => {
    const served = await open({});
    const discover = (await served.request(
      1,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope() } }),
    )) as unknown as {
      result: { supportedVersions: string[]; _meta: Record<string, unknown> };
    };
    expect(discover.result.supportedVersions).toContain('2026-07-28');
    expect(discover.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'libos' });
    const listed = (await served.request(
      2,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope() } }),
    )) as unknown as {
      result: { tools: { name: string }[]; ttlMs: number };
    };
    expect(listed.result.tools.map((tool) => tool.name)).toContain('read_text_file');
    expect(listed.result.ttlMs).toBeGreaterThan(0);
    const bad = { ...envelope(), 'io.modelcontextprotocol/clientInfo': 'not an object' };
    const refused = await served.request('bad', JSON.stringify({ jsonrpc: '2.0', id: 'bad', method: 'tools/list', params: { _meta: bad } }));
    expect(refused.error.code).toBe(-32602);
  });

  it('asks by input_required, writes nothing before the approved retry, and refuses a replay', async () => {
    const served = await open({});
    const args = { path: 'gated/a.txt', content: 'approved\n' };
    const first = await served.request('a1', call('a1', 'write_text_file', args));
    expect(first.result.resultType).toBe('input_required');
    expect(await served.fixtures.readFile('gated/a.txt')).toBeNull();
    const accept = { inputResponses: { approval: { action: 'accept', content: {} } }, requestState: first.result.requestState };
    const retried = await served.request('a2', call('a2', 'write_text_file', args, accept));
    expect(retried.result.structuredContent).toMatchObject({ path: 'gated/a.txt', created: true });
    const replayed = await served.request('a3', call('a3', 'write_text_file', args, accept));
    expect(replayed.error.code).toBe(-32602);
    expect(Buffer.from((await served.fixtures.readFile('gated/a.txt'))!).toString('utf8')).toBe('approved\n');
  });
});
