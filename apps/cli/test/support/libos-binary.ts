import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built binary (see test/global-setup.ts). */
export const LIBOS_BIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** What one run of the binary printed and returned. */
export interface LibosRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `libos ARGS` to completion, feeding `input` on stdin; `nodeArgs` go to Node before the bin. */
export function runLibos(args: readonly string[], options: { input?: string; cwd?: string; nodeArgs?: readonly string[] } = {}): Promise<LibosRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), LIBOS_BIN, ...args], {
      cwd: options.cwd ?? process.cwd(),
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** A temporary directory removed by the returned cleanup. */
export async function temporaryDirectory(prefix = 'libos-cli-'): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
