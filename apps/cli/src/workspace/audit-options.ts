import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { FileAuditLog } from '@libos/audit';
import { UsageError } from '../usage-error.js';
import type { WorkspaceOptions } from './workspace-options.js';

/** `--audit FILE [--audit-key KEY]`, as given. */
export interface AuditOptions {
  readonly file: string;
  readonly keyFile?: string;
}

/** Checks `--audit` and `--audit-key` together; `--audit-key` alone is a UsageError. */
export function auditOptionsFrom(command: string, file: string | undefined, keyFile: string | undefined): { audit?: AuditOptions } {
  if (file === undefined) {
    if (keyFile !== undefined) throw new UsageError(`${command}: --audit-key needs --audit FILE`);
    return {};
  }
  return { audit: { file, ...(keyFile === undefined ? {} : { keyFile }) } };
}

/**
 * Opens the audit log of `--audit` (loaded only then: it brings the lock's native addon), refusing
 * one inside any host directory the agent reaches, or held by another writer, with a one-line
 * UsageError (exit 2).
 */
export async function openAuditLog(options: WorkspaceOptions, hostDirectories: readonly string[]): Promise<FileAuditLog | undefined> {
  const audit = options.audit;
  if (audit === undefined) return undefined;
  const inside = hostDirectories.find((directory) => isWithin(resolve(audit.file), resolve(directory)));
  if (inside !== undefined) {
    throw new UsageError(`libos: --audit ${audit.file}: the audit log must lie outside the served root ${inside}`);
  }
  const signingKey =
    audit.keyFile === undefined
      ? undefined
      : await readFile(audit.keyFile, 'utf8').catch((error: unknown) => {
          throw new UsageError(`libos: --audit-key ${audit.keyFile}: ${error instanceof Error ? error.message : String(error)}`);
        });
  const { createFileAuditLog } = await import('@libos/audit');
  try {
    return await createFileAuditLog({
      path: audit.file,
      ...(signingKey === undefined ? {} : { signingKey }),
      onError: (error) => process.stderr.write(`libos: --audit ${audit.file}: ${error instanceof Error ? error.message : String(error)}\n`),
    });
  } catch (error) {
    throw new UsageError(`libos: --audit ${audit.file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function isWithin(file: string, root: string): boolean {
  const path = relative(root, file);
  return path === '' || (path !== '..' && !path.startsWith('../') && !isAbsolute(path));
}
