import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { CallResult } from '@libos/core';
import { onTestFinished } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/runtime-host.mjs', import.meta.url));

/** A runtime in another OS process, on the PostgreSQL store. */
export interface RuntimeHost {
  readonly child: ChildProcess;
  spawn(): Promise<string>;
  call(pid: string, tool: string, args: unknown): Promise<CallResult>;
  /** Closes its stdin, so the runtime closes, and waits for the process to exit. */
  stop(): Promise<void>;
}

/** Starts a runtime host process; it is killed when the test ends if still running. */
export async function startRuntimeHost(store: Record<string, unknown>, config: unknown): Promise<RuntimeHost> {
  const child = spawn(process.execPath, [script, JSON.stringify({ store, config })], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const pending = new Map<number, (message: { ok: boolean; value?: unknown; error?: { message: string } }) => void>();
  let ready: () => void = () => undefined;
  let failed: (error: Error) => void = () => undefined;
  const started = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
  child.once('exit', (code, signal) => failed(new Error(`the runtime host exited (${signal ?? code}) before it was ready`)));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as { id: number | 'ready'; ok: boolean; value?: unknown; error?: { message: string } };
    if (message.id === 'ready') ready();
    else pending.get(message.id)?.(message);
  });
  await started;
  let next = 0;
  async function send(request: Record<string, unknown>): Promise<unknown> {
    const id = next++;
    const message = await new Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>((resolve) => {
      pending.set(id, resolve);
      child.stdin!.write(`${JSON.stringify({ ...request, id })}\n`);
    });
    if (!message.ok) throw new Error(`runtime host: ${message.error!.message}`);
    return message.value;
  }
  return {
    child,
    spawn: async () => (await send({ op: 'spawn' })) as string,
    call: async (pid, tool, args) => (await send({ op: 'call', pid, tool, args })) as CallResult,
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}
