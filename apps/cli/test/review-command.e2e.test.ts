import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIBOS_BIN, runLibos, temporaryDirectory } from './support/libos-binary.js';

/** `libos review` as a person starts it: the address on stdout, the server until a signal. */
async function startReview(args: readonly string[]): Promise<{ url: string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [LIBOS_BIN, 'review', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr.resume();
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`libos review exited with ${code}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

describe('libos review', { timeout: 90_000 }, () => {
  let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
  let root: string;
  let state: string;
  let audit: string;
  beforeEach(async () => {
    scratch = await temporaryDirectory();
    root = join(scratch.path, 'ws');
    state = join(scratch.path, 'ws.overlay');
    audit = join(scratch.path, 'audit.log');
    await mkdir(root);
    await writeFile(join(root, 'notes.txt'), 'old\n');
    const agent = await runLibos([
      'call',
      'write_text_file',
      '{"path": "notes.txt", "content": "new\\n"}',
      '--root',
      root,
      '--overlay',
      state,
      '--audit',
      audit,
    ]);
    expect(agent.status).toBe(0);
  });
  afterEach(async () => {
    await scratch.remove();
  });

  it('prints a loopback address with a token, serves the calls behind a change, and applies what the page asks, recorded', async () => {
    const review = await startReview(['--root', root, '--overlay', state, '--audit', audit]);
    try {
      expect(review.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+$/u);
      const origin = review.url.slice(0, review.url.indexOf('/#'));
      const token = review.url.slice(review.url.indexOf('token=') + 'token='.length);
      const headers = { 'x-libos-review-token': token };
      const calls = (await (await fetch(`${origin}/api/calls?path=notes.txt`, { headers })).json()) as { calls: Record<string, unknown[]> };
      expect(calls.calls['notes.txt']).toMatchObject([{ tool: 'write_text_file', ok: true }]);
      expect(
        (await fetch(`${origin}/api/apply`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' })).status,
      ).toBe(403);
      expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('old\n');
      // The page names the version its diff showed (docs/overlay.md, "Versions").
      const diff = (await (await fetch(`${origin}/api/diff?path=notes.txt`, { headers })).json()) as { versions: { version: string }[] };
      const applied = await fetch(`${origin}/api/apply`, {
        method: 'POST',
        headers: { ...headers, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ paths: ['notes.txt'], shown: diff.versions.map((item) => item.version) }),
      });
      expect(await applied.json()).toMatchObject({ applied: ['notes.txt'], conflicts: [] });
      expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('new\n');
    } finally {
      expect(await review.stop()).toBe(0);
    }
    const shown = await runLibos(['audit', 'show', audit, '--json']);
    expect(shown.stdout.split('\n').filter((line) => line.includes('"tool":"apply"'))).toHaveLength(1);
    expect((await runLibos(['audit', 'verify', audit])).status).toBe(0);
  });

  it('refuses a listen address off loopback, and a missing --overlay, with exit 2 and one line', async () => {
    const away = await runLibos(['review', '--root', root, '--overlay', state, '--listen', '0.0.0.0:8790']);
    expect(away.status).toBe(2);
    expect(away.stderr.trim().split('\n')).toHaveLength(1);
    expect(away.stderr).toContain('--listen takes a loopback HOST:PORT');
    const none = await runLibos(['review', '--root', root]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('needs --overlay STATE');
  });
});
