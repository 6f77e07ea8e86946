import type { RequestId } from '@modelcontextprotocol/server';
import { type ExternalId, idKey, isExternalId } from './json-rpc.js';
import type { KnownStructure } from './serialized-message.js';

/** What a request looked like, for the hooks that answer or replace its reply. */
export interface CallInfo {
  readonly method: string;
  /** `params.name` of a `tools/call`, when it is a string. */
  readonly tool: string | undefined;
}

/** One request handed to the server and not yet answered, under the channel's own id. */
export interface Call extends CallInfo {
  readonly externalId: ExternalId;
  /** Aborted by the client's `notifications/cancelled`; the call is still answered. */
  readonly controller: AbortController;
  /** The result's structuredContent with its JSON, when the channel ran the call itself. */
  known?: KnownStructure | undefined;
}

/**
 * The requests in flight, by the ids the channel gave them (the SDK sees only those) and by the
 * client's own ids (a cancellation names those). Any client id works, repeated ones included: a
 * repeat gets its own internal id, and a cancellation reaches the latest.
 */
export class CallTable {
  readonly #calls = new Map<number, Call>();
  readonly #latest = new Map<string, number>();
  #nextId = 1;

  get size(): number {
    return this.#calls.size;
  }

  /** Registers a request and returns the internal id it travels under. */
  open(externalId: ExternalId, info: CallInfo): number {
    const internalId = this.#nextId++;
    this.#calls.set(internalId, { method: info.method, tool: info.tool, externalId, controller: new AbortController() });
    this.#latest.set(idKey(externalId), internalId);
    return internalId;
  }

  /** The call of an internal id (as the SDK gives it back: a number, or its text). */
  get(internalId: RequestId | undefined): Call | undefined {
    return internalId === undefined ? undefined : this.#calls.get(Number(internalId));
  }

  /** Takes the call of an answered request out of the table. */
  take(internalId: RequestId): Call | undefined {
    const call = typeof internalId === 'number' ? this.#calls.get(internalId) : undefined;
    if (call === undefined) return undefined;
    this.#calls.delete(internalId as number);
    const key = idKey(call.externalId);
    if (this.#latest.get(key) === internalId) this.#latest.delete(key);
    return call;
  }

  /** Aborts the latest call the client sent under `requestId`, if one is in flight. */
  cancel(requestId: unknown, reason: unknown): void {
    if (!isExternalId(requestId)) return;
    const internal = this.#latest.get(idKey(requestId));
    if (internal !== undefined) this.#calls.get(internal)?.controller.abort(reason);
  }
}
