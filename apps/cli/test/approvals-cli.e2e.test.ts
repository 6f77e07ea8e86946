import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';
import { failureOf, startMcpSession } from './support/mcp-session.js';

// docs/mcp.md, "Pending approvals": `libos mcp --approvals DIR` and the person's `libos approvals`.

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let config: string;
beforeAll(async () => {
  scratch = await temporaryDirectory('libos-approvals-cli-');
  root = join(scratch.path, 'workspace');
  await mkdir(root);
  config = join(scratch.path, 'libos.config.json');
  const grants = [
    { path: '.', tree: true, rights: ['read'] },
    { path: '.', tree: true, rights: ['write'], mode: 'ask' },
  ];
  await writeFile(config, JSON.stringify({ grants }));
});
afterAll(async () => {
  await scratch.remove();
});

async function waitingIds(directory: string): Promise<string[]> {
  for (;;) {
    const listed = await runLibos(['approvals', 'list', '--approvals', directory, '--json']);
    const ids = (JSON.parse(listed.stdout) as { pending: { id: string }[] }).pending.map((entry) => entry.id);
    if (ids.length > 0) return ids;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('libos mcp --approvals DIR with a client without elicitation', () => {
  it('the call waits; libos approvals lists it escaped and approves exactly it; other bytes need a new answer', async () => {
    const directory = join(scratch.path, 'approvals');
    const session = await startMcpSession(['--root', root, '--config', config, '--approvals', directory]);
    try {
      expect((await stat(directory)).mode & 0o777).toBe(0o700);
      const name = 'inv\u202Eoice.txt';
      const first = session.call('write_text_file', { path: name, content: 'approved' });
      const [id] = await waitingIds(directory);
      const listed = await runLibos(['approvals', 'list', '--approvals', directory]);
      expect(listed.status).toBe(0);
      expect(listed.stdout).toContain(`${id}  waits until `);
      expect(listed.stdout).toContain('"inv\\u{202E}oice.txt"');
      expect(listed.stdout).not.toContain('\u202E');
      const approved = await runLibos(['approvals', 'approve', id!, '--approvals', directory]);
      expect({ status: approved.status, out: approved.stdout }).toEqual({
        status: 0,
        out: expect.stringMatching(new RegExp(`^Approved ${id}: Allow write_text_file`, 'u')),
      });
      expect((await first).isError).not.toBe(true);
      expect(await readFile(join(root, name), 'utf8')).toBe('approved');
      // The approval is spent: an answer for it again is refused with exit 1 and one line.
      const again = await runLibos(['approvals', 'approve', id!, '--approvals', directory]);
      expect({ status: again.status, lines: again.stderr.trim().split('\n').length }).toEqual({ status: 1, lines: 1 });
      expect(again.stderr).toMatch(/No call waits on approval/u);
      const second = session.call('write_text_file', { path: name, content: 'other bytes', overwrite: true });
      const [next] = await waitingIds(directory);
      expect(next).not.toBe(id);
      expect((await runLibos(['approvals', 'reject', next!, '--approvals', directory])).status).toBe(0);
      expect(failureOf(await second).code).toBe('approval_rejected');
      expect(await readFile(join(root, name), 'utf8')).toBe('approved');
      expect(session.stderr()).toContain(`approval ${id} waits for a person`);
    } finally {
      await session.close();
    }
  });

  it('refuses DIR inside the root or open to others (exit 2, one line), and the person never creates DIR', async () => {
    const inside = await runLibos(['mcp', '--root', root, '--approvals', join(root, '.approvals')], { input: '' });
    expect({ status: inside.status, lines: inside.stderr.trim().split('\n').length }).toEqual({ status: 2, lines: 1 });
    expect(inside.stderr).toContain('--approvals');
    await expect(stat(join(root, '.approvals'))).rejects.toThrow();
    const open = join(scratch.path, 'open');
    await mkdir(open);
    await chmod(open, 0o755);
    const refused = await runLibos(['mcp', '--root', root, '--approvals', open], { input: '' });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/is open to other users .*chmod 700/u);
    const missing = await runLibos(['approvals', 'list', '--approvals', join(scratch.path, 'nowhere')]);
    expect(missing.status).toBe(2);
    await expect(stat(join(scratch.path, 'nowhere'))).rejects.toThrow();
    const closed = join(scratch.path, 'closed');
    await mkdir(closed, { mode: 0o700 });
    const badId = await runLibos(['approvals', 'approve', '../x', '--approvals', closed]);
    expect({ status: badId.status, said: badId.stderr }).toEqual({ status: 1, said: expect.stringContaining('is not an approval id') });
  });
});
