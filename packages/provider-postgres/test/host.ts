import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/host.mjs', import.meta.url));

/** A runtime on the PostgreSQL provider in another OS process. */
export interface Host {
  readonly child: ChildProcess;
  /** Sends one request (see fixtures/host.mjs); resolves with its value. */
  send<T>(op: string, request?: Record<string, unknown>): Promise<T>;
  /** Closes its stdin, so its runtime closes, and waits for it to exit. */
  stop(): Promise<void>;
  /** Resolves when the process has exited, however. */
  readonly exited: Promise<void>;
}

/** Starts a host process on `workspace`; it is killed when the test ends if still running. */
export async function startHost(options: { connectionString: string; schema: string; workspace: string }): Promise<Host> {
  const child = spawn(process.execPath, [script, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  type Reply = { id: number | 'ready'; ok: boolean; value?: unknown; error?: { message: string } };
  const pending = new Map<number, (message: Reply) => void>();
  let ready: () => void = () => undefined;
  let failed: (error: Error) => void = () => undefined;
  const started = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
  child.once('exit', (code, signal) => failed(new Error(`the host exited (${signal ?? code}) before it was ready`)));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as Reply;
    if (message.id === 'ready') ready();
    else pending.get(message.id)?.(message);
  });
  await started;
  // A reply that can no longer come (the process died) settles its request as a failure.
  child.once('exit', (code, signal) => {
    for (const [id, resolve] of pending) resolve({ id, ok: false, error: { message: `the host exited (${signal ?? code})` } });
  });
  let next = 0;
  return {
    child,
    exited,
    async send<T>(op: string, request: Record<string, unknown> = {}): Promise<T> {
      const id = next++;
      const message = await new Promise<Reply>((resolve) => {
        pending.set(id, resolve);
        child.stdin!.write(`${JSON.stringify({ ...request, op, id })}\n`);
      });
      pending.delete(id);
      if (!message.ok) throw new Error(`host: ${message.error!.message}`);
      return message.value as T;
    },
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}
