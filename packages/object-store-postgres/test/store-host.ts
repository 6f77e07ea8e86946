import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import type { PostgresObjectStoreOptions } from '../src/index.js';

const script = fileURLToPath(new URL('./fixtures/store-host.mjs', import.meta.url));

/** A store in another OS process: `call(method, ...args)` resolves to its value or rejects with its LibosError shape. */
export interface StoreHost {
  readonly hostId: string;
  readonly child: ChildProcess;
  call(method: string, ...args: unknown[]): Promise<unknown>;
  /** The outcome of a call without throwing: the value, or the failure's code. */
  settle(method: string, ...args: unknown[]): Promise<{ ok: true; value: unknown } | { ok: false; code: string }>;
}

/** Starts a store host process; it is killed when the test ends if still running. */
export async function startStoreHost(options: Omit<PostgresObjectStoreOptions, 'pool'>): Promise<StoreHost> {
  const child = spawn(process.execPath, [script, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'inherit'] });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const pending = new Map<number, (message: { ok: boolean; value?: unknown; error?: { code: string } }) => void>();
  let ready: (hostId: string) => void = () => undefined;
  let failed: (error: Error) => void = () => undefined;
  const started = new Promise<string>((resolve, reject) => ((ready = resolve), (failed = reject)));
  child.on('exit', (code, signal) => failed(new Error(`the store host exited (${signal ?? code}) before it was ready`)));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as { id: number | 'ready'; ok: boolean; value?: unknown; error?: { code: string } };
    if (message.id === 'ready') ready((message.value as { hostId: string }).hostId);
    else pending.get(message.id)?.(message);
  });
  const hostId = await started;
  let next = 0;
  function send(method: string, args: unknown[]) {
    const id = next++;
    return new Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>((resolve) => {
      pending.set(id, resolve);
      child.stdin!.write(`${JSON.stringify({ id, method, args })}\n`);
    });
  }
  return {
    hostId,
    child,
    async call(method, ...args) {
      const message = await send(method, args);
      if (!message.ok) throw Object.assign(new Error(`${method} failed: ${message.error!.code}`), message.error);
      return message.value;
    },
    async settle(method, ...args) {
      const message = await send(method, args);
      return message.ok ? { ok: true, value: message.value } : { ok: false, code: message.error!.code };
    },
  };
}
