import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalRequest } from '@libos/core';
import { describe, expect, it } from 'vitest';
import type { ToolSummary } from '@libos/tools';
import { createMcpServer } from '../src/create-mcp-server.js';
import { approvalMessage, createElicitationApprover } from '../src/elicitation-approver.js';
import type { McpProcess } from '../src/mcp-runtime.js';
import { toCallToolResult } from '../src/to-call-tool-result.js';
import { fakeRuntime } from './support/fake-runtime.js';

const echoTool: ToolSummary = {
  name: 'echo',
  title: 'Echo',
  description: 'Returns its input.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
  outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

async function connect(process: McpProcess, capabilities: Record<string, unknown> = {}) {
  const server = createMcpServer(fakeRuntime([echoTool], process), { version: '0.0.0-test' });
  const client = new Client({ name: 'adapter-test', version: '0' }, { capabilities });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  await client.listTools();
  return { server, client };
}

describe('toCallToolResult', () => {
  it('puts a result in structuredContent and in one JSON text block', () => {
    expect(toCallToolResult({ ok: true, result: { a: 1 } })).toEqual({
      structuredContent: { a: 1 },
      content: [{ type: 'text', text: '{"a":1}' }],
    });
  });

  it('puts a failure in one text block, details always present, and never in structuredContent', () => {
    const result = toCallToolResult({ ok: false, error: { code: 'not_found', message: 'Nothing at "x".', effect: 'none' } });
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: '{"error":{"code":"not_found","message":"Nothing at \\"x\\".","effect":"none","details":{}}}' }],
    });
  });
});

describe('createMcpServer', () => {
  it('publishes annotations with openWorldHint false', async () => {
    const { client } = await connect({ call: async () => ({ ok: true, result: { text: '' } }) });
    const [tool] = (await client.listTools()).tools;
    expect(tool).toMatchObject({
      name: 'echo',
      title: 'Echo',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    });
  });

  it('passes raw arguments through and maps the outcome', async () => {
    const seen: unknown[] = [];
    const { client } = await connect({
      call: async (_name, args) => {
        seen.push(args);
        return { ok: true, result: { text: 'back' } };
      },
    });
    const result = await client.callTool({ name: 'echo', arguments: { text: 'x', unknown: true } });
    expect(seen).toEqual([{ text: 'x', unknown: true }]);
    expect(result.structuredContent).toEqual({ text: 'back' });
  });

  it('turns a throw inside the runtime into provider_failure with effect unknown, hiding its text', async () => {
    const { client } = await connect({
      call: async () => {
        throw new Error('/home/secret/path exploded');
      },
    });
    const result = await client.callTool({ name: 'echo', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result).not.toHaveProperty('structuredContent');
    const text = (result.content as { text: string }[])[0]!.text;
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'provider_failure', effect: 'unknown' } });
    expect(text).not.toContain('/home/secret');
  });
});

describe('createElicitationApprover', () => {
  const request: ApprovalRequest = {
    tool: 'write_text_file',
    right: 'write',
    path: 'src/app.ts',
    arguments_sha256: '0'.repeat(64),
    content_bytes: 12,
    content_sha256: 'a'.repeat(64),
    preview: 'hello world!',
    message: 'Allow write_text_file to write "src/app.ts"? It would write 12 bytes (SHA-256 aaaa). Preview: hello world!',
  };

  it("shows the runtime's own escaped sentence, naming libos", () => {
    expect(approvalMessage(request)).toBe(`libos: ${request.message}`);
  });

  /** A session whose one tool asks `approver` and returns its decision, as a runtime's call would. */
  async function asking(approver: ReturnType<typeof createElicitationApprover>, capabilities: Record<string, unknown>, signal?: AbortSignal) {
    const session = await connect(
      { call: async () => ({ ok: true, result: { text: await approver(request, signal === undefined ? {} : { signal }) } }) },
      capabilities,
    );
    return {
      ...session,
      decide: async () => ((await session.client.callTool({ name: 'echo', arguments: {} })).structuredContent as { text: string }).text,
    };
  }

  it.each([
    ['accept', 'approve'],
    ['decline', 'reject'],
    ['cancel', 'unavailable'],
  ] as const)('maps %s to %s', async (action, decision) => {
    const { client, decide } = await asking(createElicitationApprover(), { elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (question) => {
      asked.push(question.params.message);
      return action === 'accept' ? { action, content: {} } : { action };
    });
    expect(await decide()).toBe(decision);
    expect(asked).toEqual([approvalMessage(request)]);
  });

  it('is unavailable outside a session, without form elicitation, on a timeout and once the call is abandoned', async () => {
    expect(await createElicitationApprover()(request, {})).toBe('unavailable');
    const plain = await asking(createElicitationApprover(), {});
    expect(await plain.decide()).toBe('unavailable');

    const slow = await asking(createElicitationApprover({ timeoutMs: 50 }), { elicitation: {} });
    slow.client.setRequestHandler(ElicitRequestSchema, () => new Promise(() => {}));
    expect(await slow.decide()).toBe('unavailable');

    const abandoned = new AbortController();
    const left = await asking(createElicitationApprover(), { elicitation: {} }, abandoned.signal);
    left.client.setRequestHandler(ElicitRequestSchema, () => new Promise(() => {}));
    const pending = left.decide();
    setTimeout(() => abandoned.abort(), 50);
    expect(await pending).toBe('unavailable');
  });
});
