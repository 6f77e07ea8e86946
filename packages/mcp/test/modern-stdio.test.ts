import { afterEach, describe, expect, it } from 'vitest';
import { createElicitationApprover } from '../src/elicitation-approver.js';
import { type Answer, asGeneration, MODERN, type Served, serve } from './support/generations.js';

// 2026-07-28 over stdio: one SDK server is pinned for the connection and each request reaches it
// under an id of the wire's own. These attack that mapping: answers must come back under the
// client's exact ids, each with its own call's result, whatever ids the client picks.

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A memfs workspace over stdio whose `gated/` needs an `ask` approval to write; one raw 2026-07-28 connection. */
async function open(files: Record<string, string>) {
  served = await serve('stdio', {
    directories: ['gated'],
    files,
    runtimeOptions: {
      approver: createElicitationApprover(),
      config: {
        grants: [
          { path: '.', tree: true, rights: ['read', 'write'] },
          { path: 'gated', tree: true, rights: ['write'], mode: 'ask' },
        ],
      },
    },
  });
  const connection = await served.connect(MODERN);
  return { fixtures: served.fixtures!, connection };
}

const call = (id: unknown, name: string, args: unknown, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...extra },
});
/** The structured or text result of a tool call's answer, as a test reads it. */
const resultOf = (answer: Answer) => answer.result as Record<string, unknown> & { structuredContent?: Record<string, unknown> };

describe('MCP 2026-07-28 over stdio', () => {
  it('answers calls in flight together under the client ids, each with its own result', async () => {
    const files = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`f${index}.txt`, `file ${index}\n`]));
    const { connection } = await open(files);
    // Ids the wire also mints (1, 2, ...), strings that look like them, and a zero.
    const ids: unknown[] = [2, 1, '1', '2', 0, 'x', 7, 3];
    const answers = await Promise.all(ids.map((id, index) => connection.request(call(id, 'read_text_file', { path: `f${index}.txt` }))));
    answers.forEach((answer, index) => {
      expect(answer.id).toBe(ids[index]);
      expect(answer.result?.structuredContent).toMatchObject({ content: `file ${index}\n` });
    });
  });

  it('refuses a __proto__ key in the arguments as the library does, writing nothing', async () => {
    const { connection, fixtures } = await open({});
    const meta = JSON.stringify((asGeneration(MODERN, { method: 'm' }) as { params: { _meta: unknown } }).params._meta);
    const line = `{"jsonrpc":"2.0","id":"p","method":"tools/call","params":{"name":"write_text_file","arguments":{"path":"a.txt","content":"x","__proto__":{"polluted":true}},"_meta":${meta}}}`;
    const answer = (await connection.exchange(line)).answers.find((candidate) => candidate.id === 'p');
    expect(answer?.result?.isError).toBe(true);
    expect(JSON.parse(answer?.result?.content?.[0]?.text ?? '')).toMatchObject({ error: { code: 'invalid_arguments' } });
    expect(await fixtures.readFile('a.txt')).toBeNull();
  });

  it('answers server/discover and tools/list with cache hints, and an invalid envelope under its id', async () => {
    const { connection } = await open({});
    const discover = resultOf(await connection.request({ jsonrpc: '2.0', id: 1, method: 'server/discover' }));
    expect(discover.supportedVersions).toContain('2026-07-28');
    expect((discover._meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'libos' });
    const listed = resultOf(await connection.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' })) as {
      tools: { name: string }[];
      ttlMs: number;
    };
    expect(listed.tools.map((tool) => tool.name)).toContain('read_text_file');
    expect(listed.ttlMs).toBeGreaterThan(0);
    const bad = { 'io.modelcontextprotocol/clientInfo': 'not an object' };
    const refused = await connection.request({ jsonrpc: '2.0', id: 'bad', method: 'tools/list', params: { _meta: bad } });
    expect(refused.error?.code).toBe(-32602);
  });

  it('asks by input_required, writes nothing before the approved retry, and refuses a replay', async () => {
    const { connection, fixtures } = await open({});
    const args = { path: 'gated/a.txt', content: 'approved\n' };
    const first = resultOf(await connection.request(call('a1', 'write_text_file', args)));
    expect(first.resultType).toBe('input_required');
    expect(await fixtures.readFile('gated/a.txt')).toBeNull();
    const accept = { inputResponses: { approval: { action: 'accept', content: {} } }, requestState: first.requestState };
    const retried = resultOf(await connection.request(call('a2', 'write_text_file', args, accept)));
    expect(retried.structuredContent).toMatchObject({ path: 'gated/a.txt', created: true });
    const replayed = await connection.request(call('a3', 'write_text_file', args, accept));
    expect(replayed.error?.code).toBe(-32602);
    expect(Buffer.from((await fixtures.readFile('gated/a.txt'))!).toString('utf8')).toBe('approved\n');
  });
});
