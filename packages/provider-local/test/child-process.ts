import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A running child node process whose stdout is read line by line. */
export interface RunningChild {
  readonly process: ChildProcess;
  /** Resolves with the next stdout line (waiting for it), or rejects if the child exits first. */
  nextLine(): Promise<string>;
  /** Resolves with the exit signal or code once the child is gone. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** How a child is started: as another user, or under a command that runs it (`unshare --net`). */
export interface ChildOptions {
  readonly uid?: number;
  readonly gid?: number;
  readonly wrapper?: readonly string[];
}

/** Starts `node file ...args` with stdin piped, so the child can be sent lines and end-of-input. */
export function startChild(file: string, args: readonly string[], options: ChildOptions = {}): RunningChild {
  const [command = process.execPath, ...prefix] = options.wrapper === undefined ? [] : [...options.wrapper, process.execPath];
  const child = spawn(command, [...prefix, file, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    cwd: '/',
    ...(options.uid === undefined ? {} : { uid: options.uid }),
    ...(options.gid === undefined ? {} : { gid: options.gid }),
  });
  const lines: string[] = [];
  const waiting: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  let buffered = '';
  let ended = false;
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const waiter = waiting.shift();
      if (waiter === undefined) lines.push(line);
      else waiter.resolve(line);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => {
      ended = true;
      for (const waiter of waiting.splice(0)) waiter.reject(new Error(`The child exited (${signal ?? code}) before printing a line.`));
      resolve({ code, signal });
    }),
  );
  return {
    process: child,
    exited,
    nextLine: () => {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (ended) return Promise.reject(new Error('The child has exited.'));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
  };
}

/** Waits until the kernel reports `pid` as stopped (state T), polling without any fixed delay. */
export async function untilStopped(pid: number): Promise<void> {
  for (;;) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
