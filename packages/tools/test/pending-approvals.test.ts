import { chmod, chown, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigInput } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalDirectory, createDirectoryApprover, createRuntime, type DirectoryApproverOptions, type PendingApproval } from '../src/index.js';

const ASK_WRITES: ConfigInput = {
  grants: [
    { path: '.', tree: true, rights: ['read'] },
    { path: '.', tree: true, rights: ['write', 'delete'], mode: 'ask' },
  ],
};
let base: string;
let directory: ApprovalDirectory;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'libos-pending-'));
  directory = await ApprovalDirectory.open(join(base, 'approvals'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function runtimeWith(options: DirectoryApproverOptions = {}) {
  const runtime = await createRuntime({
    provider: createMemfsProvider(),
    config: ASK_WRITES,
    approver: createDirectoryApprover(directory, { pollMs: 20, ...options }),
  });
  return { runtime, process: runtime.spawn() };
}

/** The next request to appear (a call waits on it). */
async function nextPending(count = 1): Promise<PendingApproval[]> {
  for (;;) {
    const pending = await directory.list();
    if (pending.length >= count) return pending;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('pending approvals in a directory (clients without elicitation)', () => {
  it('the directory is made 0700, and one open to other users is refused', async () => {
    expect((await stat(directory.path)).mode & 0o777).toBe(0o700);
    await chmod(directory.path, 0o755);
    await expect(ApprovalDirectory.open(directory.path)).rejects.toThrow(/open to other users .*chmod 700/u);
    await expect(ApprovalDirectory.open(join(base, 'missing'), { create: false })).rejects.toThrow(/does not exist/u);
  });

  it('an approval lets exactly that call land; the same or other bytes later need a new approval', async () => {
    const { runtime, process } = await runtimeWith({ waitMs: 60_000 });
    const first = process.call('write_text_file', { path: 'a.txt', content: 'approved bytes' });
    const [pending] = await nextPending();
    expect(pending!.request).toMatchObject({ tool: 'write_text_file', right: 'write', path: 'a.txt', content_bytes: 14 });
    expect(pending!.request.message).toContain('SHA-256');
    await directory.answer(pending!.id, 'approve');
    expect((await first).ok).toBe(true);
    expect(await directory.list()).toEqual([]);
    // The hostile agent: other bytes right after an approval. A new request, which the old answer cannot satisfy.
    const second = process.call('write_text_file', { path: 'a.txt', content: 'other bytes' });
    const [next] = await nextPending();
    expect(next!.id).not.toBe(pending!.id);
    // It copies the earlier answer under the new id: the answer names another text, so it is not believed.
    await writeFile(
      join(directory.path, `${next!.id}.answer.json`),
      JSON.stringify({ id: next!.id, answer: 'approve', shown_sha256: pending!.shown_sha256 }),
      {
        mode: 0o600,
      },
    );
    await expect.poll(async () => (await readdir(directory.path)).some((name) => name.endsWith('.answer.json')), { timeout: 5000 }).toBe(false);
    await expect(directory.answer(pending!.id, 'approve')).rejects.toThrow(/No call waits on approval/u);
    await directory.answer(next!.id, 'reject');
    const rejected = await second;
    expect(rejected.ok === false && rejected.error.code).toBe('approval_rejected');
    const read = await process.call('read_text_file', { path: 'a.txt' });
    expect(read.ok && read.result.content).toBe('approved bytes');
    await runtime.close();
  });

  it('an answer file open to others, or naming another request, is not believed; the person can still answer', async () => {
    const { runtime, process } = await runtimeWith({ waitMs: 60_000 });
    const logs: string[] = [];
    const call = process.call('delete_file', { path: 'gone.txt' });
    const [pending] = await nextPending();
    const answer = join(directory.path, `${pending!.id}.answer.json`);
    await writeFile(answer, JSON.stringify({ id: pending!.id, answer: 'approve', shown_sha256: pending!.shown_sha256 }), { mode: 0o644 });
    await chmod(answer, 0o644);
    await expect.poll(async () => (await readdir(directory.path)).includes(`${pending!.id}.answer.json`), { timeout: 5000 }).toBe(false);
    await writeFile(answer, JSON.stringify({ id: 'ffffffffffffffff', answer: 'approve', shown_sha256: pending!.shown_sha256 }), { mode: 0o600 });
    await expect.poll(async () => (await readdir(directory.path)).includes(`${pending!.id}.answer.json`), { timeout: 5000 }).toBe(false);
    // Another local user's file (only root can make one, by chown), made outside and moved in whole
    // so the waiting call never sees it as this user's: not believed either.
    if (globalThis.process.getuid?.() === 0) {
      const outside = join(base, 'forged.json');
      await writeFile(outside, JSON.stringify({ id: pending!.id, answer: 'approve', shown_sha256: pending!.shown_sha256 }), { mode: 0o600 });
      await chown(outside, 65534, 65534);
      await rename(outside, answer);
      await expect.poll(async () => (await readdir(directory.path)).includes(`${pending!.id}.answer.json`), { timeout: 5000 }).toBe(false);
      expect(await directory.answerTo(pending!, (reason) => logs.push(reason))).toBeUndefined();
    }
    await directory.answer(pending!.id, 'reject');
    const result = await call;
    expect(result.ok === false && result.error.code).toBe('approval_rejected');
    await runtime.close();
  });

  it('no answer in time is approval_required saying so, and the request is removed', async () => {
    const { runtime, process } = await runtimeWith({ waitMs: 300 });
    const result = await process.call('write_text_file', { path: 'late.txt', content: 'x' });
    expect(result.ok === false && result.error.code).toBe('approval_required');
    expect(result.ok === false && result.error.message).toMatch(/no one answered approval [0-9a-f]{16} within 0 s/u);
    expect(await readdir(directory.path)).toEqual([]);
    await runtime.close();
  });

  it('a cancelled call stops waiting (approval_required) and its request is gone; a late answer is refused', async () => {
    const { runtime, process } = await runtimeWith({ waitMs: 60_000 });
    const controller = new AbortController();
    const call = process.call('write_text_file', { path: 'c.txt', content: 'x' }, { signal: controller.signal });
    const [pending] = await nextPending();
    controller.abort();
    const result = await call;
    expect(result.ok === false && result.error.code).toBe('approval_required');
    await expect.poll(async () => readdir(directory.path), { timeout: 5000 }).toEqual([]);
    await expect(directory.answer(pending!.id, 'approve')).rejects.toThrow(/No call waits/u);
    await runtime.close();
  });

  it('a flood is bounded: past the cap a call is refused at once with a clear approval_required', async () => {
    const { runtime, process } = await runtimeWith({ waitMs: 60_000, maxPending: 2 });
    const waiting = [1, 2].map((n) => process.call('write_text_file', { path: `f${n}.txt`, content: 'x' }));
    await nextPending(2);
    const refused = await process.call('write_text_file', { path: 'f3.txt', content: 'x' });
    expect(refused.ok === false && refused.error.code).toBe('approval_required');
    expect(refused.ok === false && refused.error.message).toMatch(/2 approvals already wait for a person \(at most 2\)/u);
    expect(await directory.list()).toHaveLength(2);
    for (const pending of await directory.list()) await directory.answer(pending.id, 'reject');
    await Promise.all(waiting);
    await runtime.close();
  });

  it('names with bidi and control characters are stored and listed escaped; an expired request is removed and refused', async () => {
    const { runtime, process } = await runtimeWith({ waitMs: 60_000 });
    const call = process.call('write_text_file', { path: 'inv\u202Eoice\u0007.txt', content: 'x' });
    const [pending] = await nextPending();
    const file = await readFile(join(directory.path, `${pending!.id}.request.json`), 'utf8');
    expect(file).not.toMatch(/[\u202E\u0007]/u);
    expect(pending!.request.message).toContain('inv\\u{202E}oice\\u{0007}.txt');
    await directory.answer(pending!.id, 'reject');
    await call;
    // A second answer never replaces the first (no server here takes it away).
    const open = await directory.add({ ...pending!.request }, Date.now() + 60_000);
    await directory.answer(open.id, 'reject');
    await expect(directory.answer(open.id, 'approve')).rejects.toThrow(/already answered; the first answer stands/u);
    await directory.remove(open.id);
    const stale = await directory.add({ ...pending!.request }, Date.now() - 1);
    await expect(directory.answer(stale.id, 'approve')).rejects.toThrow(/expired/u);
    expect(await readdir(directory.path)).toEqual([]);
    await runtime.close();
  });
});
