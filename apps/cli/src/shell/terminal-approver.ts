import type { Interface } from 'node:readline';
import type { ApprovalDecision, ApprovalRequest, Approver } from '@libos/core';

/** How the terminal approver reaches the person: a question answered by one line. */
export interface TerminalQuestion {
  /** Whether a person is there to answer (standard input is a terminal). */
  readonly interactive: boolean;
  /** Shows `prompt` and resolves with the next line typed, or undefined when input ends or `signal` aborts. */
  ask(prompt: string, signal: AbortSignal | undefined): Promise<string | undefined>;
}

/**
 * The question as the person at the terminal sees it: the runtime's own sentence, already escaped
 * for display (so a name or content with CR, ANSI escapes or bidirectional overrides shows them as
 * `\u{202E}`-style escapes; a write's content and an edit's change come as real lines, each escaped on its own), the same
 * text an MCP client's user is shown.
 */
export function terminalApprovalPrompt(request: ApprovalRequest): string {
  return `libos: ${request.message}\nApprove? [y/N] `;
}

/**
 * Asks the person at the terminal about each `ask` call: `y` or `yes` approves, any other answer
 * rejects, and no terminal, the end of input or an abandoned call is `unavailable` (the call then
 * fails with approval_required). A script fed on a pipe is never taken as a person's answer.
 */
export function createTerminalApprover(question: TerminalQuestion): Approver {
  // One question at a time: two calls never read the same typed line.
  let queue: Promise<unknown> = Promise.resolve();
  return (request, { signal }): Promise<ApprovalDecision> => {
    if (!question.interactive) return Promise.resolve('unavailable');
    const answer = queue.then(async (): Promise<ApprovalDecision> => {
      if (signal?.aborted === true) return 'unavailable';
      const line = await question.ask(terminalApprovalPrompt(request), signal);
      if (line === undefined) return 'unavailable';
      return /^\s*(y|yes)\s*$/i.test(line) ? 'approve' : 'reject';
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
}

/** Asks on a readline interface: its next line answers, whatever else is reading it; closing it answers nothing. */
export function askOn(lines: Interface, prompt: string, signal: AbortSignal | undefined): Promise<string | undefined> {
  return new Promise((resolve) => {
    const done = (line: string | undefined) => {
      lines.off('close', closed);
      signal?.removeEventListener('abort', aborted);
      resolve(line);
    };
    const closed = () => done(undefined);
    const aborted = () => done(undefined);
    lines.once('close', closed);
    signal?.addEventListener('abort', aborted, { once: true });
    lines.question(prompt, signal === undefined ? {} : { signal }, (line) => done(line));
  });
}
