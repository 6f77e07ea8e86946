import type { MessageExtraInfo } from '@modelcontextprotocol/server';
import type { ExternalId } from './json-rpc.js';

/** A request read but not yet handed to the server, with its size as read. */
export interface Parked {
  readonly id: ExternalId;
  readonly method: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly bytes: number;
  readonly extra: MessageExtraInfo | undefined;
}

/** The requests held back until a call slot frees, in arrival order, and the bytes they hold. */
export class ParkedRequests {
  readonly #queue: Parked[] = [];
  #bytes = 0;

  get length(): number {
    return this.#queue.length;
  }

  get bytes(): number {
    return this.#bytes;
  }

  push(request: Parked): void {
    this.#queue.push(request);
    this.#bytes += request.bytes;
  }

  /** The oldest request held, taken out; undefined when none is. */
  shift(): Parked | undefined {
    const next = this.#queue.shift();
    if (next !== undefined) this.#bytes -= next.bytes;
    return next;
  }
}
