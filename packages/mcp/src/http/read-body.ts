import type { IncomingMessage } from 'node:http';
import type { BodyBudget } from './body-budget.js';

/** A body over the bound: the request is answered 413 and the rest of it is never buffered. */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

/** The server already holds as many body bytes as it may: the request is answered 503. */
export class BodyBudgetSpent extends Error {
  override readonly name = 'BodyBudgetSpent';
}

/** The body did not arrive whole within the deadline: the request is answered 408. */
export class BodyTimedOut extends Error {
  override readonly name = 'BodyTimedOut';
}

/**
 * Reads a request body of at most `maxBytes` within `deadlineMs`, refusing a larger one as soon as
 * it shows (a declared Content-Length over the bound included). Its bytes are taken from `budget`
 * as they arrive, never as declared: a client that only sends headers with a large Content-Length
 * holds nothing but its connection, and the deadline ends that. They stay taken until the caller
 * gives back `taken.bytes`, also when this throws.
 */
export function readBody(
  request: IncomingMessage,
  maxBytes: number,
  budget: BodyBudget,
  taken: { bytes: number },
  deadlineMs: number,
): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (error: Error | undefined) => {
      clearTimeout(timer);
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error === undefined) return resolve(Buffer.concat(chunks, total));
      // Stop reading: the rest of a refused body is never buffered.
      request.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) return finish(new BodyTooLarge());
      if (!budget.take(chunk.length)) return finish(new BodyBudgetSpent());
      taken.bytes += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => finish(undefined);
    const onError = (error: Error) => finish(error);
    const onClose = () => finish(new Error('The connection closed before the body arrived.'));
    const timer = setTimeout(() => finish(new BodyTimedOut()), deadlineMs);
    request.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}
