import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIBOS_BIN, runLibos, temporaryDirectory } from './support/libos-binary.js';
import { type McpSession, startMcpSession } from './support/mcp-session.js';

// The README's review recipe while the agent's server runs (as a desktop client keeps it): the
// server holds the audit log, so a person's changing operation cannot be recorded there yet. It is
// refused before anything changes, with one sentence, never a stack trace (docs/overlay.md, "CLI").
describe("a person's operation while the agent's server holds the audit log", { timeout: 90_000 }, () => {
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

  it('libos apply --audit refuses with one line naming the server, and applies nothing', async () => {
    const apply = await runLibos(['apply', '--root', root, '--overlay', state, '--audit', audit]);
    expect(apply.status).toBe(2);
    expect(apply.stdout).toBe('');
    expect(apply.stderr.trim().split('\n')).toHaveLength(1);
    expect(apply.stderr).toContain(audit);
    expect(apply.stderr).toContain("agent's server");
    expect(apply.stderr).toContain('nothing was changed');
    expect(apply.stderr).not.toMatch(/\n\s+at /u);
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('old\n');
  });

  it("the review page's Apply answers the same sentence, and the review process prints no stack trace", async () => {
    const child = spawn(process.execPath, [LIBOS_BIN, 'review', '--root', root, '--overlay', state, '--audit', audit], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`libos review exited with ${code}: ${stderr}`)));
      });
      const origin = url.slice(0, url.indexOf('/#'));
      const headers = { 'x-libos-review-token': url.slice(url.indexOf('token=') + 'token='.length) };
      const listed = (await (await fetch(`${origin}/api/changes`, { headers })).json()) as { set_version: string };
      const applied = await fetch(`${origin}/api/apply`, {
        method: 'POST',
        headers: { ...headers, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ shown_set: listed.set_version }),
      });
      const body = (await applied.json()) as { error?: { message: string; effect: string } };
      expect(applied.status).toBe(409);
      expect(body.error?.message).toContain("agent's server");
      expect(body.error?.message).not.toContain('see its log');
      expect(body.error?.effect).toBe('none');
      expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('old\n');
    } finally {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
    expect(stderr).not.toMatch(/\n\s+at /u);
  });
});
