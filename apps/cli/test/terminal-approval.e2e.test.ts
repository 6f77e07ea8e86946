import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBOS_BIN, runLibos, temporaryDirectory } from './support/libos-binary.js';

// A real pseudo-terminal from util-linux `script`: libos sees a TTY on stdin and stdout, as a person's
// terminal; what the test writes is typed on it, and it answers only once the question is on screen.
function onTerminal(args: readonly string[], answers: readonly { after: string; type: string }[]) {
  const command = [process.execPath, LIBOS_BIN, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let screen = '';
  let next = 0;
  let seenUpTo = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    while (next < answers.length) {
      const at = screen.indexOf(answers[next]!.after, seenUpTo);
      if (at === -1) break;
      seenUpTo = at + answers[next]!.after.length;
      child.stdin.write(answers[next]!.type);
      next++;
    }
  });
  return new Promise<{ status: number | null; screen: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, screen }));
  });
}

let workspace: Awaited<ReturnType<typeof temporaryDirectory>>;
let config: string;
beforeAll(async () => {
  workspace = await temporaryDirectory();
  config = join(workspace.path, '..', `${workspace.path.split('/').pop()}.json`);
  await writeFile(config, JSON.stringify({ grants: [{ path: '.', tree: true, rights: ['read', 'write'], mode: 'ask' }] }));
});
afterAll(async () => {
  await workspace?.remove();
  await rm(config, { force: true });
});

describe('an ask grant at the terminal', () => {
  it('libos shell asks the person, with the escaped text, and does what they answer', async () => {
    await writeFile(join(workspace.path, 'a.txt'), 'old line\n');
    const run = await onTerminal(
      ['shell', '--root', workspace.path, '--config', config],
      [
        { after: '$ ', type: 'call edit_text_file {"path": "a.txt", "edits": [{"old_text": "old", "new_text": "new\\u202e"}]}\r' },
        { after: 'Approve? [y/N] ', type: 'y\r' },
        { after: '$ ', type: 'write b.txt nope\r' },
        { after: 'Approve? [y/N] ', type: 'n\r' },
        { after: '$ ', type: 'exit\r' },
      ],
    );
    expect(run.status).toBe(0);
    // The edit's change as real lines, the hidden character escaped, then the question.
    expect(run.screen).toContain('-old line');
    expect(run.screen).toContain('+new\\u{202E} line');
    expect(run.screen).toMatch(/libos: Allow edit_text_file to write "a\.txt"\?/);
    expect(await readFile(join(workspace.path, 'a.txt'), 'utf8')).toBe('new\u202e line\n');
    expect(run.screen).toContain('[approval_rejected]');
    await expect(readFile(join(workspace.path, 'b.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('libos call --approve asks on the terminal and keeps stdout the JSON result', async () => {
    const run = await onTerminal(
      ['call', 'write_text_file', '{"path": "c.txt", "content": "hi\\nthere\\u001b[2K"}', '--root', workspace.path, '--config', config, '--approve'],
      [{ after: 'Approve? [y/N] ', type: 'yes\r' }],
    );
    expect(run.status).toBe(0);
    // The content as real lines behind a margin, each escaped on its own.
    expect(run.screen).toMatch(
      /It would write 12 bytes \(SHA-256 [0-9a-f]{64}\)\. Preview:\r?\n {2}\| hi\r?\n {2}\| there\\u\{001B\}\[2K\r?\nApprove\? \[y\/N\]/,
    );
    expect(run.screen).toContain('"ok": true');
    expect(await readFile(join(workspace.path, 'c.txt'), 'utf8')).toBe('hi\nthere\u001b[2K');
  });

  it('without a terminal, nobody is asked: approval_required, and a piped "y" approves nothing', async () => {
    const call = await runLibos(
      ['call', 'write_text_file', '{"path": "d.txt", "content": "x"}', '--root', workspace.path, '--config', config, '--approve'],
      {
        input: 'y\n',
      },
    );
    expect(call.status).toBe(1);
    expect(JSON.parse(call.stdout)).toMatchObject({ ok: false, error: { code: 'approval_required' } });
    const shell = await runLibos(['shell', '--root', workspace.path, '--config', config], { input: 'write d.txt x\ny\n' });
    expect(shell.status).toBe(1);
    expect(shell.stdout + shell.stderr).toContain('[approval_required]');
    await expect(readFile(join(workspace.path, 'd.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
