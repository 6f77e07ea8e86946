import { LibosError, checkStoreSignal, type ProcessRecord, type ProcessStoreV1 } from '@libos/core';

const STORE_NAME = 'memory';

/**
 * A process store in this host's memory: for one `libos serve` alone. Its records go with the
 * host; a fleet of servers shares `@libos/state-postgres` instead.
 */
export function createMemoryProcessStore(): ProcessStoreV1 {
  const records = new Map<string, { record: ProcessRecord; lastUsed: number }>();
  let closed = false;
  const live = (key: string, idleMs: number) => {
    const entry = records.get(key);
    return entry !== undefined && Date.now() - entry.lastUsed < idleMs ? entry : undefined;
  };
  const open = (signal?: AbortSignal) => {
    if (closed) throw new LibosError('provider_failure', 'The process store has been closed.', { effect: 'none' });
    checkStoreSignal(signal, STORE_NAME);
  };
  return {
    specificationVersion: 'v1',
    name: STORE_NAME,
    async create(key, record, options) {
      open(options?.signal);
      records.set(key, { record: { pid: record.pid, cwd: record.cwd }, lastUsed: Date.now() });
    },
    async touch(key, idleMs, options) {
      open(options?.signal);
      const entry = live(key, idleMs);
      if (entry === undefined) return undefined;
      entry.lastUsed = Date.now();
      return entry.record;
    },
    async setCwd(key, cwd, idleMs, options) {
      open(options?.signal);
      const entry = live(key, idleMs);
      if (entry === undefined) return false;
      entry.record = { pid: entry.record.pid, cwd };
      entry.lastUsed = Date.now();
      return true;
    },
    async sweep(idleMs, options) {
      open(options?.signal);
      const now = Date.now();
      const swept: string[] = [];
      for (const [key, entry] of records) {
        if (now - entry.lastUsed < idleMs) continue;
        records.delete(key);
        swept.push(entry.record.pid);
      }
      return swept;
    },
    async close() {
      closed = true;
      records.clear();
    },
  };
}
