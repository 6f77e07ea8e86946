import { afterEach, describe, expect, it, vi } from 'vitest';
import { startGated } from './support/modern-fixture.js';

type Gated = Awaited<ReturnType<typeof startGated>>;
let served: Gated | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await served?.close();
  served = undefined;
});

const WRITE = { path: 'gated/a.txt', content: 'approved bytes\n' };
const accept = { approval: { action: 'accept', content: {} } };

/** The first round: the call stops at the approval, touching nothing. */
async function firstRound(gated: Gated, args: unknown = WRITE) {
  const answer = await gated.call('write_text_file', args);
  expect(answer.json.id).toBe(answer.id);
  expect(answer.json.result.resultType).toBe('input_required');
  return answer.json.result;
}

async function fileText(gated: Gated, path: string): Promise<string | undefined> {
  const bytes = await gated.fixtures.readFile(path);
  return bytes === null ? undefined : Buffer.from(bytes).toString('utf8');
}

describe('2026-07-28 approvals by input_required', () => {
  it('asks with the escaped sentence, writes nothing until the approved retry, then writes once', async () => {
    served = await startGated();
    const first = await firstRound(served);
    const elicitation = first.inputRequests.approval;
    expect(elicitation?.method).toBe('elicitation/create');
    expect(elicitation?.params.message).toMatch(/^libos: .*gated\/a\.txt/su);
    expect(first.requestState).not.toContain('tok');
    expect(await fileText(served, 'gated/a.txt')).toBeUndefined();
    const retried = await served.call('write_text_file', WRITE, { inputResponses: accept, requestState: first.requestState });
    expect(retried.json.result.structuredContent).toMatchObject({ path: 'gated/a.txt', created: true });
    expect(await fileText(served, 'gated/a.txt')).toBe('approved bytes\n');
  });

  it('fails a declined retry with approval_rejected and writes nothing', async () => {
    served = await startGated();
    const first = await firstRound(served);
    const declined = await served.call('write_text_file', WRITE, {
      inputResponses: { approval: { action: 'decline' } },
      requestState: first.requestState,
    });
    expect(declined.json.result.isError).toBe(true);
    expect(declined.json.result.content[0]?.text).toContain('approval_rejected');
    expect(await fileText(served, 'gated/a.txt')).toBeUndefined();
  });

  it('refuses a tampered state under the request id and writes nothing', async () => {
    served = await startGated();
    const first = await firstRound(served);
    const [version, body, mac] = first.requestState.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'));
    payload.p.approved = [payload.p.pending, ...payload.p.approved];
    const forged = [version, Buffer.from(JSON.stringify(payload)).toString('base64url'), mac].join('.');
    const refused = await served.call('write_text_file', WRITE, { inputResponses: accept, requestState: forged });
    expect(refused.json.id).toBe(refused.id);
    expect(refused.json.error.code).toBe(-32602);
    expect(await fileText(served, 'gated/a.txt')).toBeUndefined();
  });

  it('refuses a replayed state: the second retry changes nothing', async () => {
    served = await startGated();
    const first = await firstRound(served);
    const once = await served.call('write_text_file', WRITE, { inputResponses: accept, requestState: first.requestState });
    expect(once.json.result.structuredContent).toMatchObject({ created: true });
    await served.fixtures.writeFile('gated/a.txt', 'changed since\n');
    const again = await served.call('write_text_file', WRITE, { inputResponses: accept, requestState: first.requestState });
    expect(again.json.error.code).toBe(-32602);
    expect(await fileText(served, 'gated/a.txt')).toBe('changed since\n');
  });

  it('refuses a state sealed for other bytes, another path or another tool', async () => {
    served = await startGated();
    const first = await firstRound(served);
    const otherBytes = await served.call(
      'write_text_file',
      { ...WRITE, content: 'evil\n' },
      { inputResponses: accept, requestState: first.requestState },
    );
    expect(otherBytes.json.error.code).toBe(-32602);
    const otherPath = await served.call(
      'write_text_file',
      { ...WRITE, path: 'gated/b.txt' },
      { inputResponses: accept, requestState: first.requestState },
    );
    expect(otherPath.json.error.code).toBe(-32602);
    const otherTool = await served.call('append_text_file', WRITE, { inputResponses: accept, requestState: first.requestState });
    expect(otherTool.json.error.code).toBe(-32602);
    expect(await fileText(served, 'gated/a.txt')).toBeUndefined();
    expect(await fileText(served, 'gated/b.txt')).toBeUndefined();
  });

  it('refuses a state past the ten-minute window', async () => {
    served = await startGated();
    const first = await firstRound(served);
    vi.useFakeTimers({ now: Date.now() + 601_000, toFake: ['Date'] });
    const late = await served.call('write_text_file', WRITE, { inputResponses: accept, requestState: first.requestState });
    expect(late.json.error.code).toBe(-32602);
    vi.useRealTimers();
    expect(await fileText(served, 'gated/a.txt')).toBeUndefined();
  });
});
