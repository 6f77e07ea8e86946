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

/**
 * Reads a request body of at most `maxBytes`, refusing a larger one as soon as it shows. Its bytes
 * are taken from `budget` as they arrive (all of a declared Content-Length at once) and stay
 * taken until the caller gives back `taken()` bytes, also when this throws.
 */
export async function readBody(request: IncomingMessage, maxBytes: number, budget: BodyBudget, taken: { bytes: number }): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge();
  const take = (bytes: number) => {
    if (!budget.take(bytes)) throw new BodyBudgetSpent();
    taken.bytes += bytes;
  };
  if (Number.isFinite(declared)) take(declared);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) throw new BodyTooLarge();
    if (total > taken.bytes) take(total - taken.bytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
