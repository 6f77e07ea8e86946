import type { ApprovalRequest } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { APPROVAL_CHANNELS } from '../src/workspace/approval-channels.js';

const request: ApprovalRequest = {
  tool: 'delete_file',
  right: 'delete',
  path: 'a.txt',
  arguments_sha256: '0'.repeat(64),
  content_bytes: null,
  content_sha256: null,
  preview: null,
  message: 'delete a.txt?',
};

describe('the approval channel table', () => {
  it('holds the terminal, the MCP client and the pending directory, each describing itself', () => {
    expect(Object.keys(APPROVAL_CHANNELS)).toEqual(['terminal', 'mcp', 'pending']);
    for (const channel of Object.values(APPROVAL_CHANNELS)) expect(channel.summary).toMatch(/\(libos /u);
  });

  it('the terminal channel asks the person on a line and approves only a yes; without a terminal nobody is asked', async () => {
    const prompts: string[] = [];
    const answering = await APPROVAL_CHANNELS.terminal.create({
      interactive: true,
      ask: async (prompt) => {
        prompts.push(prompt);
        return prompts.length === 1 ? 'yes' : 'sure';
      },
    });
    expect(await answering(request, {})).toBe('approve');
    expect(await answering(request, {})).toBe('reject');
    expect(prompts[0]).toBe('libos: delete a.txt?\nApprove? [y/N] ');
    const piped = await APPROVAL_CHANNELS.terminal.create({ interactive: false, ask: async () => 'y' });
    expect(await piped(request, {})).toBe('unavailable');
  });

  it('the MCP channel makes an elicitation approver, loaded only when created', async () => {
    expect(typeof (await APPROVAL_CHANNELS.mcp.create(undefined))).toBe('function');
  });
});
