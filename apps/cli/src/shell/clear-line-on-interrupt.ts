import type { Interface } from 'node:readline';
import type { ShellSession } from './shell-session.js';

/**
 * Ctrl-C at the prompt drops the line being typed (and an open heredoc) and prompts again, as
 * shells do. Without a listener, readline pauses its input on Ctrl-C and the session stops
 * answering. Ctrl-D or `exit` still end the session.
 */
export function clearLineOnInterrupt(lines: Interface, session: ShellSession, write: (text: string) => void): void {
  lines.on('SIGINT', () => {
    lines.write(null, { ctrl: true, name: 'e' });
    lines.write(null, { ctrl: true, name: 'u' });
    write(session.cancel() ? '\nwrite: cancelled; nothing written\n' : '\n');
    lines.setPrompt(session.prompt);
    lines.prompt();
  });
}
