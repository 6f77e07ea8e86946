import { type JSONRPCRequest, type Result, Server, type ServerContext } from '@modelcontextprotocol/server';
import { isPlainObject } from '../json-rpc.js';

/** Answers a `tools/call` the SDK's schema would refuse (a result, or a throw), or undefined to leave it to the SDK. */
export type PreemptToolCall = (params: Readonly<Record<string, unknown>>, ctx: ServerContext) => Promise<Result> | undefined;

/**
 * The SDK's Server, with the `tools/call` requests its schema check refuses (no string `name`,
 * `arguments` that is not an object) answered as docs/mcp.md says instead: the SDK would refuse
 * them before any handler runs, with no audit record and a raw schema dump as the message.
 * `_wrapHandler` is the SDK's hook for subclasses; the `_meta` envelope was checked before it runs.
 */
export class PreemptingServer extends Server {
  #preempt: PreemptToolCall | undefined;

  constructor(info: ConstructorParameters<typeof Server>[0], options: ConstructorParameters<typeof Server>[1], preempt: PreemptToolCall) {
    super(info, options);
    this.#preempt = preempt;
  }

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return wrapped;
    return (request, ctx) => this.#preempt?.(isPlainObject(request.params) ? request.params : {}, ctx) ?? wrapped(request, ctx);
  }
}
