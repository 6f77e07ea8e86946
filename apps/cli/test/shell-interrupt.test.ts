import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { clearLineOnInterrupt } from '../src/shell/clear-line-on-interrupt.js';
import { ShellSession } from '../src/shell/shell-session.js';
import type { ToolCaller } from '@libos/tools';

const idle: Pick<ToolCaller, 'call'> = { call: async () => ({ ok: true, result: {} }) };

/** A terminal-mode line reader on fake streams, wired as `libos shell` wires it. */
function terminal(session: ShellSession) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  const lines = createInterface({ input, output, terminal: true });
  clearLineOnInterrupt(lines, session, (text) => void output.write(text));
  const nextLine = () =>
    Promise.race([
      once(lines, 'line').then(([line]) => line as string),
      new Promise<string>((_, reject) => setTimeout(() => reject(new Error('the reader stopped answering')), 2_000)),
    ]);
  return { input, lines, nextLine, shown: () => shown };
}

describe('Ctrl-C at the shell prompt', () => {
  it('drops the line being typed and keeps reading, as shells do', async () => {
    const { input, lines, nextLine } = terminal(new ShellSession(idle, [], () => {}));
    const line = nextLine();
    input.write('half a comm\x03pwd\r');
    expect(await line).toBe('pwd');
    lines.close();
  });

  it('abandons an open heredoc without writing', async () => {
    const calls: string[] = [];
    const recording: Pick<ToolCaller, 'call'> = { call: async (name) => (calls.push(name), { ok: true, result: {} }) };
    const session = new ShellSession(recording, [], () => {});
    const { input, lines, nextLine, shown } = terminal(session);
    await session.handleLine('write notes.txt <<END');
    expect(session.prompt).toBe('> ');
    const line = nextLine();
    input.write('\x03END\r');
    expect(await line).toBe('END');
    expect(session.prompt).toBe('libos:.$ ');
    expect(shown()).toContain('nothing written');
    await session.handleLine('END');
    expect(calls).toEqual([]);
    lines.close();
  });
});
