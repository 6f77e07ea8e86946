import { existsSync } from 'node:fs';
import { readRecords } from '@libos/audit';
import type { ReviewCall, ReviewCalls } from './review-operations.js';

/** The calls the audit log recorded for each path: one pass over the log per request, newest kept. */
export function auditCalls(file: string): ReviewCalls {
  return {
    async callsFor(paths, limit) {
      const wanted = new Set(paths);
      const found: Record<string, ReviewCall[]> = Object.fromEntries(paths.map((path) => [path, []]));
      if (wanted.size === 0 || !existsSync(file)) return found;
      readRecords(file, {}, (record) => {
        const named = new Set([...(record.paths ?? []), ...(record.effects ?? []).map((effect) => effect.path)]);
        for (const path of named) {
          const list = wanted.has(path) ? found[path] : undefined;
          if (list === undefined || typeof record.tool !== 'string') continue;
          list.push({
            seq: record.seq,
            tool: record.tool,
            time: record.time,
            client: record.client === null || record.client === undefined ? null : `${record.client.name} ${record.client.version}`,
            ok: record.result.ok,
          });
          if (list.length > limit) list.shift();
        }
      });
      return found;
    },
  };
}
