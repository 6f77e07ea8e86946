import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigInput, Approver } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime, type BUILTIN_TOOLS } from '@libos/tools';
import { afterEach } from 'vitest';
import { createFileAuditLog, type FileAuditLog, type FileAuditLogOptions } from '../src/index.js';
import type { AuditRecord } from '../src/index.js';

const directories: string[] = [];
const logs: FileAuditLog[] = [];

afterEach(async () => {
  for (const log of logs.splice(0)) await log.close().catch(() => {});
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A fresh directory outside every workspace, removed after the test. */
export function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'libos-audit-'));
  directories.push(directory);
  return directory;
}

/** Opens a log in a fresh directory; closed after the test. */
export async function openLog(options: Partial<FileAuditLogOptions> = {}): Promise<FileAuditLog> {
  const log = await createFileAuditLog({ path: join(temporaryDirectory(), 'audit.log'), ...options });
  logs.push(log);
  return log;
}

/** Every record of a log file. */
export function recordsOf(path: string): AuditRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditRecord);
}

/** The records of tool calls only (no session markers). */
export function callRecordsOf(path: string): AuditRecord[] {
  return recordsOf(path).filter((record) => record.tool !== 'session_start' && record.tool !== 'session_end');
}

/** A memfs runtime recording into `log`, with `files` seeded through the tools. */
export async function auditedRuntime(
  log: FileAuditLog,
  options: { config?: ConfigInput; approver?: Approver; files?: Record<string, string>; tools?: typeof BUILTIN_TOOLS } = {},
) {
  const provider = createMemfsProvider();
  // Seeded by a runtime without audit and without policy, so the log holds only the test's calls.
  const seeder = await createRuntime({ provider: { ...provider, close: async () => {} } });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    const written = await seeder.spawn().call('write_text_file', { path, content });
    if (!written.ok) throw new Error(`seed ${path}: ${written.error.message}`);
  }
  return createRuntime({
    provider,
    audit: log,
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.approver === undefined ? {} : { approver: options.approver }),
    ...(options.tools === undefined ? {} : { tools: options.tools }),
  });
}
