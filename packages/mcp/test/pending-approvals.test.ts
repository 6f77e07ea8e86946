import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigInput } from '@libos/core';
import { ApprovalDirectory, createDirectoryApprover, type PendingApproval } from '@libos/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { createElicitationApprover } from '../src/elicitation-approver.js';
import { type Answer, EVERY_WAY, MODERN, type RawConnection, type Served, serve } from './support/generations.js';

// Clients without elicitation (Inspector CLI, LangChain, OpenAI Agents, ...): the call waits in the
// directory for the person instead of failing at once (docs/mcp.md, "Pending approvals").
const CONFIG: ConfigInput = {
  grants: [
    { path: '.', tree: true, rights: ['read'] },
    { path: '.', tree: true, rights: ['write'], mode: 'ask' },
  ],
};
/** What a 2026-07-28 client without elicitation puts in `_meta`; a 2025-era one declares nothing in `initialize`. */
const NO_ELICITATION = { 'io.modelcontextprotocol/clientCapabilities': {} };

let served: Served | undefined;
let base: string | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  if (base !== undefined) await rm(base, { recursive: true, force: true });
  base = undefined;
});

async function setUp(transport: 'stdio' | 'http') {
  base = await mkdtemp(join(tmpdir(), 'libos-mcp-pending-'));
  const directory = await ApprovalDirectory.open(join(base, 'approvals'));
  const fallback = createDirectoryApprover(directory, { pollMs: 20, waitMs: 60_000 });
  served = await serve(transport, { runtimeOptions: { config: CONFIG, approver: createElicitationApprover({ fallback }) } });
  return directory;
}

let nextId = 0;
function write(connection: RawConnection, path: string, content: string): Promise<Answer> {
  const params = { name: 'write_text_file', arguments: { path, content }, ...(connection.generation === MODERN ? { _meta: NO_ELICITATION } : {}) };
  return connection.request({ jsonrpc: '2.0', id: `w${++nextId}`, method: 'tools/call', params });
}

async function waiting(directory: ApprovalDirectory): Promise<PendingApproval> {
  for (;;) {
    const [pending] = await directory.list();
    if (pending !== undefined) return pending;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const errorOf = (answer: Answer) => (JSON.parse(answer.result?.content?.[0]?.text ?? '{}') as { error?: { code: string; message: string } }).error;

describe.each(EVERY_WAY)(
  'a client without elicitation answered from the pending directory ($generation over $transport)',
  ({ generation, transport }) => {
    it('waits for the person, writes exactly the approved bytes once; other bytes ask again, and a reject refuses', async () => {
      const directory = await setUp(transport);
      const connection = await served!.connect(generation, {}, {});
      const first = write(connection, 'inv\u202Eoice.txt', 'approved bytes');
      const pending = await waiting(directory);
      expect(pending.request.message).toContain('"inv\\u{202E}oice.txt"');
      expect(pending.request.message).not.toContain('\u202E');
      expect(pending.request).toMatchObject({ tool: 'write_text_file', right: 'write', content_bytes: 14 });
      await directory.answer(pending.id, 'approve');
      const landed = await first;
      expect(landed.result?.isError).not.toBe(true);
      expect(landed.result?.resultType).not.toBe('input_required');
      // The same agent, other bytes: a new request; the earlier approval is spent and answers nothing.
      const second = write(connection, 'inv\u202Eoice.txt', 'other bytes');
      const next = await waiting(directory);
      expect(next.id).not.toBe(pending.id);
      await expect(directory.answer(pending.id, 'approve')).rejects.toThrow(/No call waits/u);
      await directory.answer(next.id, 'reject');
      expect(errorOf(await second)?.code).toBe('approval_rejected');
      const read = await connection.request({
        jsonrpc: '2.0',
        id: `r${++nextId}`,
        method: 'tools/call',
        params: { name: 'read_text_file', arguments: { path: 'inv\u202Eoice.txt' } },
      });
      expect(read.result?.structuredContent?.content).toBe('approved bytes');
    });
  },
);
