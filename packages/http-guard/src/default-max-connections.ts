import { readFileSync } from 'node:fs';

const MAX_DEFAULT = 1024;

/**
 * Half the soft file-descriptor limit, at most 1024: the other half stays for the files the server
 * itself opens, so that no number of connections makes the work of clients already served fail.
 */
export function defaultMaxConnections(): number {
  try {
    const soft = /^Max open files\s+(\d+)/mu.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    if (soft !== undefined) return Math.max(8, Math.min(MAX_DEFAULT, Math.floor(Number(soft) / 2)));
  } catch {
    // No /proc: the fixed bound below.
  }
  return MAX_DEFAULT / 4;
}
