import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIBOS_BIN, runLibos, temporaryDirectory } from './support/libos-binary.js';
import { type McpSession, startMcpSession } from './support/mcp-session.js';

// The README's review recipe while the agent's server runs (as a desktop client keeps it): the
// person's operations are recorded in the same trail the server writes, the two taking turns at its
// lock, and the trail stays one chain. A process that never lets go of the lock (a stuck one, an
// older libOS) makes the person's operation fail after a bounded wait, in one sentence, with
// nothing changed and never a stack trace (docs/audit.md, "Several writers").
describe("a person's operation while the agent's server writes the audit log", { timeout: 120_000 }, () => {
  let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
  let root: string;
  let state: string;
  let audit: string;
  let server: McpSession;
  beforeEach(async () => {
    scratch = await temporaryDirectory('libos-audit-busy-');
    root = join(scratch.path, 'ws');
    state = join(scratch.path, 'ws.overlay');
    audit = join(scratch.path, 'audit.log');
    await mkdir(root);
    await writeFile(join(root, 'notes.txt'), 'old\n');
    server = await startMcpSession(['--root', root, '--overlay', state, '--audit', audit]);
    const wrote = await server.call('write_text_file', { path: 'notes.txt', content: 'new\n' });
    expect(wrote.isError, JSON.stringify(wrote)).toBeFalsy();
  });
  afterEach(async () => {
    await server?.close();
    await scratch.remove();
  });

  const tools = async () =>
    (await readFile(audit, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { tool: string }).tool);

  it('libos apply --audit applies and is recorded in the same trail, which the server goes on writing; the chain verifies', async () => {
    const apply = await runLibos(['apply', '--root', root, '--overlay', state, '--audit', audit]);
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('new\n');
    const read = await server.call('read_text_file', { path: 'notes.txt' });
    expect(read.isError, JSON.stringify(read)).toBeFalsy();
    expect(await tools()).toEqual(['session_start', 'write_text_file', 'session_start', 'apply', 'session_end', 'read_text_file']);
    const verified = await runLibos(['audit', 'verify', audit]);
    expect(verified.status).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, records: 6 });
  });

  it("the review page's Apply applies and is recorded while the server runs", async () => {
    const review = await startReview(['--root', root, '--overlay', state, '--audit', audit]);
    try {
      const applied = await review.apply();
      expect(applied.status).toBe(200);
      expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('new\n');
      expect(await tools()).toContain('apply');
    } finally {
      await review.stop();
    }
    expect(review.stderr()).not.toMatch(/\n\s+at |error/iu);
    expect((await runLibos(['audit', 'verify', audit])).status).toBe(0);
  });

  it('a process holding the lock for good: apply and the page both fail after a bounded wait, in one sentence, nothing changed', async () => {
    const stuck = await holdLockForGood(audit);
    try {
      const apply = await runLibos(['apply', '--root', root, '--overlay', state, '--audit', audit]);
      expect(apply.status).toBe(2);
      expect(apply.stdout).toBe('');
      expect(apply.stderr.trim().split('\n')).toHaveLength(1);
      expect(apply.stderr).toContain(audit);
      expect(apply.stderr).toContain('does not let go');
      expect(apply.stderr).toContain('nothing was changed');
      expect(apply.stderr).not.toMatch(/\n\s+at /u);
      expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('old\n');

      const review = await startReview(['--root', root, '--overlay', state, '--audit', audit]);
      try {
        const applied = await review.apply();
        const body = (await applied.json()) as { error?: { message: string; effect: string } };
        expect(applied.status).toBe(409);
        expect(body.error?.message).toContain('does not let go');
        expect(body.error?.message).not.toContain('see its log');
        expect(body.error?.effect).toBe('none');
        expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('old\n');
      } finally {
        await review.stop();
      }
      expect(review.stderr()).not.toMatch(/\n\s+at /u);
    } finally {
      stuck.kill('SIGKILL');
    }
  });
});

// Holds the writers' lock of `log` as a stuck process would (SQLite's lock on LOG.lock, never let go).
async function holdLockForGood(log: string): Promise<ChildProcess> {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const script = `const D = require(${JSON.stringify(sqlite)}); const d = new D(${JSON.stringify(`${log}.lock`)}, { timeout: 0 }); d.exec('BEGIN EXCLUSIVE'); console.log('locked'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', () => resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return child;
}

async function startReview(args: readonly string[]) {
  const child = spawn(process.execPath, [LIBOS_BIN, 'review', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`libos review exited with ${code}: ${stderr}`)));
  });
  const origin = url.slice(0, url.indexOf('/#'));
  const headers = { 'x-libos-review-token': url.slice(url.indexOf('token=') + 'token='.length) };
  return {
    stderr: () => stderr,
    async apply() {
      const listed = (await (await fetch(`${origin}/api/changes`, { headers })).json()) as { set_version: string };
      return fetch(`${origin}/api/apply`, {
        method: 'POST',
        headers: { ...headers, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ shown_set: listed.set_version }),
      });
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}
