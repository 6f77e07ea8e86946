import type { IncomingMessage } from 'node:http';

/** The largest body an action takes: a selection of paths, never file contents. */
export const MAX_BODY_BYTES = 1_048_576;
const BODY_DEADLINE_MS = 10_000;

/** Reads a JSON object body, bounded in size and time; undefined when it is not one. */
export function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: Record<string, unknown> | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => {
      finish(undefined);
      request.destroy();
    }, BODY_DEADLINE_MS);
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        finish(undefined);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('error', () => finish(undefined));
    request.on('end', () => {
      try {
        const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        finish(typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
      } catch {
        finish(undefined);
      }
    });
  });
}
