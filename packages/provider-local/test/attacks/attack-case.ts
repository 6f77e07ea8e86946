import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { join } from 'node:path';
import type { Sandbox } from '../local-testbed.js';
import type { AttackCall } from '../tool-harness.js';

/** One attack: a hostile workspace (setup), the calls made through the tools, and what each must give. */
export interface AttackCase {
  readonly name: string;
  readonly setup?: (sandbox: Sandbox) => void | Promise<void>;
  readonly calls: readonly AttackCall[] | ((sandbox: Sandbox) => readonly AttackCall[]);
  readonly after?: (sandbox: Sandbox) => void;
}

export const read = (path: string): Record<string, unknown> => ({ path });
export const write = (path: string, content = 'pwned', extra: Record<string, unknown> = {}): Record<string, unknown> => ({ path, content, ...extra });
export const recursive = (path: string): Record<string, unknown> => ({ path, recursive: true });

export function tree(sandbox: Sandbox, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(sandbox.at(path), '..'), { recursive: true });
    writeFileSync(sandbox.at(path), content);
  }
}
export const link = (sandbox: Sandbox, path: string, target: string): void => symlinkSync(target, sandbox.at(path));
export const outsideFile = (sandbox: Sandbox): string => join(sandbox.outside, 'secret.txt');
export const outsideDirectory = (sandbox: Sandbox): string => join(sandbox.outside, 'directory');

export const GIT_ALIASES = [
  '.git',
  '.GIT',
  '.Git',
  '.git.',
  '.git..',
  '.git ',
  '.git. ',
  '.git::$INDEX_ALLOCATION',
  '.git:x',
  'git~1',
  'GIT~1',
  '.g\u200Bit',
  '\uFEFF.git',
  '.gıt',
];

const servers: Server[] = [];

/** Listens on a Unix socket at a host path; `closeSockets` ends them after the suite. */
export function socketAt(hostPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    servers.push(server);
    server.once('error', reject);
    server.listen(hostPath, () => resolve());
  });
}

export async function closeSockets(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
}
