import type { IncomingMessage } from 'node:http';

/** A body over the bound: the request is answered 413 and the rest of it is never buffered. */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

/** Reads a request body of at most `maxBytes`, refusing a larger one as soon as it shows. */
export async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
