import { readFile } from 'node:fs/promises';
import type { FileAuditLog } from '@libos/audit';
import { UsageError } from '../usage-error.js';
import type { PrivateFile } from './refuse-files-in-roots.js';
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
 * The files of `--audit` the agent must never reach, for `refuseFilesInRoots`: the log (which it
 * could read or replace), its argument key (with which it could test guesses at arguments) and the
 * signing key (with which it could sign a forged log).
 */
export function auditPrivateFiles(audit: AuditOptions | undefined): PrivateFile[] {
  if (audit === undefined) return [];
  return [
    { flag: '--audit', path: audit.file },
    // Its argument key, beside it: a link there into the root is named here rather than failing later.
    { flag: '--audit', path: `${audit.file}.key` },
    ...(audit.keyFile === undefined ? [] : [{ flag: '--audit-key', path: audit.keyFile }]),
  ];
}

/**
 * Opens the audit log of `--audit` (loaded only then), refusing one held by another writer with a
 * one-line UsageError (exit 2). One inside a served directory is refused before, with `--objects`
 * (`refuse-files-in-roots.ts`).
 */
export async function openAuditLog(options: WorkspaceOptions): Promise<FileAuditLog | undefined> {
  const audit = options.audit;
  if (audit === undefined) return undefined;
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
    throw new UsageError(`libos: --audit ${audit.file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
