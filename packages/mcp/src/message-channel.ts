import { Buffer } from 'node:buffer';
import type { JSONRPCMessage, JSONRPCNotification, MessageExtraInfo, RequestId, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { CallTable } from './call-table.js';
import { clientReply } from './client-reply.js';
import { DEFAULT_CHANNEL_LIMITS, type ChannelLimits } from './channel-limits.js';
import { classifyMessage, errorAnswer, isRequestEnvelope, JSON_RPC, requestRefusal } from './json-rpc.js';
import { type Parked, ParkedRequests } from './parked-requests.js';
import { type PreemptAnswer, type PreemptRequest, toolCallMessage } from './tool-call-hooks.js';
import type { OversizeResult } from './oversize-reply.js';
import { serializeMessage, type SerializedMessage } from './serialized-message.js';

/**
 * Writes one message. `serialized` is its JSON exactly as measured (in pieces, no newline, and its
 * size as written); the promise settles once the bytes have left the process (a stream's write
 * callback), not when buffered, because the channel counts everything not yet settled as unwritten.
 */
export type MessageSink = (message: JSONRPCMessage, serialized: SerializedMessage, options?: TransportSendOptions) => Promise<void>;

export interface MessageChannelOptions {
  readonly sink: MessageSink;
  readonly limits?: Partial<ChannelLimits>;
  /**
   * Answers a request itself, before the SDK sees it (return undefined to let the SDK handle it):
   * the session's `tools/call`, run end to end on the client's own JSON and this call's signal.
   */
  readonly preempt?: (request: PreemptRequest) => Promise<PreemptAnswer> | undefined;
  /** The result that replaces a reply over `maxReplyBytes` (undefined: a JSON-RPC error). */
  readonly oversizeResult?: OversizeResult;
  readonly log?: (line: string) => void;
  readonly sessionId?: string;
}

/**
 * One MCP session's message layer, between a byte transport (stdio or Streamable HTTP) and SDK
 * v2's `Server` (which connects to it as its Transport). It runs each `tools/call` itself
 * (`preempt`), leaving the SDK the rest of the protocol. It keeps the session's bounds: calls in flight,
 * unwritten reply bytes and the size of each reply as written; it answers every request it was
 * given, whatever its id (ids are replaced by the channel's own before the SDK sees them); and it
 * tells its reader when to stop reading (`whenReadable`) and when everything read has been
 * answered (`drained`).
 */
export class MessageChannel implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly sessionId: string | undefined;
  readonly limits: ChannelLimits;

  readonly #options: MessageChannelOptions;
  readonly #calls = new CallTable();
  /** Ids of the server's own requests (elicitation) the client has not answered yet. */
  readonly #awaitingClient = new Set<RequestId>();
  readonly #parked = new ParkedRequests();
  #unwrittenBytes = 0;
  #ended = false;
  #closed = false;
  #waiters: (() => void)[] = [];
  #drainWaiters: (() => void)[] = [];

  constructor(options: MessageChannelOptions) {
    this.#options = options;
    this.limits = { ...DEFAULT_CHANNEL_LIMITS, ...options.limits };
    this.sessionId = options.sessionId;
  }

  /** Requests handed to the server and not yet answered. */
  get callsInFlight(): number {
    return this.#calls.size;
  }

  /** Reply bytes not yet written out. */
  get unwrittenBytes(): number {
    return this.#unwrittenBytes;
  }

  /** Requests read but held back until a call slot frees. */
  get parkedRequests(): number {
    return this.#parked.length;
  }

  /** True while the reader may read one more message. */
  get readable(): boolean {
    if (this.#closed || this.#ended) return false;
    if (this.#canDispatch() && this.#parked.length === 0) return true;
    // The client's answer to an approval may sit behind requests: read on, holding them, this far.
    return this.#awaitingClient.size > 0 && this.#parked.length < this.limits.maxParkedRequests && this.#parked.bytes < this.limits.maxParkedBytes;
  }

  /** Resolves when the reader may read one more message (back-pressure: until then, do not read). */
  whenReadable(): Promise<void> {
    if (this.readable || this.#closed) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Resolves once every request received has been answered and every reply written. */
  drained(): Promise<void> {
    if (this.#isDrained()) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#wake();
    this.onclose?.();
  }

  /** One line of input (a newline-delimited JSON-RPC message, without its newline). */
  receiveLine(line: Buffer | string, extra?: MessageExtraInfo): void {
    const text = (typeof line === 'string' ? line : line.toString('utf8')).replace(/\r$/u, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reply(errorAnswer(null, JSON_RPC.parseError, 'Parse error: the message is not valid JSON.'));
      return;
    }
    this.receive(value, Buffer.byteLength(text, 'utf8'), extra);
  }

  /** One parsed message; `bytes` is its size as read (it bounds what the channel holds back). */
  receive(value: unknown, bytes: number, extra?: MessageExtraInfo): void {
    if (this.#closed) return;
    const incoming = classifyMessage(value);
    switch (incoming.kind) {
      case 'refused':
        for (const answer of incoming.answers) this.reply(answer);
        return;
      case 'ignored':
        this.#options.log?.(`ignored ${incoming.reason}`);
        return;
      case 'response': {
        const id = (incoming.message as { id?: RequestId }).id;
        if (id === undefined || !this.#awaitingClient.delete(id)) {
          this.#options.log?.('ignored a response to no request of this server');
          return;
        }
        this.onmessage?.(incoming.message, extra);
        this.#wake();
        return;
      }
      case 'notification':
        this.#deliverNotification(incoming.message, extra);
        return;
      case 'request': {
        const parked: Parked = { id: incoming.id, method: incoming.method, body: incoming.body, bytes, extra };
        if (this.#canDispatch() && this.#parked.length === 0) this.#dispatch(parked);
        else this.#parked.push(parked);
        return;
      }
    }
  }

  /**
   * No more input will come. The server's questions to the client can no longer be answered, so
   * they fail now (an approval then fails with `approval_required`) instead of holding a call open.
   */
  endOfInput(): void {
    this.#ended = true;
    for (const id of this.#awaitingClient) {
      this.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32000, message: 'The client closed its input before answering.' } });
    }
    this.#awaitingClient.clear();
    this.#wake();
  }

  /** Writes a message that answers no dispatched request (a refusal, an over-size line's answer). */
  reply(message: JSONRPCMessage): void {
    this.#write(message, serializeMessage(message), undefined).catch((error: unknown) => this.#failedWrite(error));
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#closed) throw new Error('The session is closed.');
    // A transport that routes by request (HTTP streams) knows the client's ids, not the channel's.
    const { relatedRequestId: internalRelated, ...rest } = options ?? {};
    const related = internalRelated === undefined ? undefined : this.#calls.get(internalRelated)?.externalId;
    const outgoing: TransportSendOptions = related === undefined || related === null ? rest : { ...rest, relatedRequestId: related };
    if ('id' in message && message.id !== undefined && ('result' in message || 'error' in message)) {
      await this.#sendReply(message.id, message, outgoing);
      return;
    }
    if ('id' in message && 'method' in message) {
      if (this.#ended) throw new Error('The client has closed its input; it cannot answer.');
      this.#awaitingClient.add(message.id);
      this.#wake();
    }
    const serialized = serializeMessage(message);
    if (serialized.bytes > this.limits.maxReplyBytes) {
      throw new Error(`A ${'method' in message ? message.method : ''} message would be larger than ${this.limits.maxReplyBytes} bytes.`);
    }
    await this.#write(message, serialized, outgoing);
  }

  async #sendReply(id: RequestId, message: JSONRPCMessage, options: TransportSendOptions): Promise<void> {
    const call = this.#calls.take(id);
    if (call === undefined) {
      this.#options.log?.('dropped a reply to no request of this session');
      return;
    }
    const reply = clientReply(call, message, this.limits.maxReplyBytes, this.#options.oversizeResult, this.#options.log);
    await this.#write(reply.message, reply.serialized, options);
  }

  #deliverNotification(message: JSONRPCNotification, extra: MessageExtraInfo | undefined): void {
    if (message.method === 'notifications/cancelled') {
      // A request still held back is not cancelled: it runs and is answered like any other.
      this.#calls.cancel(message.params?.requestId, message.params?.reason);
      return;
    }
    this.onmessage?.(message, extra);
  }

  #dispatch(request: Parked): void {
    const params = request.body.params as Record<string, unknown> | undefined;
    const tool = request.method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
    const internalId = this.#calls.open(request.id, { method: request.method, tool });
    const message = { ...(request.method === 'tools/call' ? toolCallMessage(request.body) : request.body), id: internalId };
    if (!isRequestEnvelope(message)) {
      const refusal = requestRefusal(message, internalId);
      this.send(refusal).catch((error: unknown) => this.#failedWrite(error));
      return;
    }
    const call = this.#calls.get(internalId)!;
    const preempted = this.#options.preempt?.({ id: internalId, method: request.method, params, signal: call.controller.signal });
    if (preempted !== undefined) {
      preempted
        .then(
          ({ known, ...answer }) => {
            // The result's JSON as measured when the call returned: the reply splices it in, not serializing it again.
            call.known = known;
            return this.send({ jsonrpc: '2.0', id: internalId, ...answer } as JSONRPCMessage);
          },
          (error: unknown) => this.send({ jsonrpc: '2.0', id: internalId, error: { code: JSON_RPC.internalError, message: String(error) } }),
        )
        .catch((error: unknown) => this.#failedWrite(error));
      return;
    }
    this.onmessage?.(message, request.extra);
  }

  async #write(message: JSONRPCMessage, serialized: SerializedMessage, options: TransportSendOptions | undefined): Promise<void> {
    const { bytes } = serialized;
    this.#unwrittenBytes += bytes;
    try {
      await this.#options.sink(message, serialized, options);
    } finally {
      this.#unwrittenBytes -= bytes;
      this.#wake();
    }
  }

  #canDispatch(): boolean {
    return this.#calls.size < this.limits.maxCallsInFlight && this.#unwrittenBytes < this.limits.maxUnwrittenBytes;
  }

  #isDrained(): boolean {
    return this.#calls.size === 0 && this.#parked.length === 0 && this.#unwrittenBytes === 0;
  }

  /** Re-checks every bound after a change: dispatches held requests, then wakes readers and drainers. */
  #wake(): void {
    while (!this.#closed && this.#parked.length > 0 && this.#canDispatch()) {
      this.#dispatch(this.#parked.shift()!);
    }
    if (this.readable || this.#closed) for (const resolve of this.#waiters.splice(0)) resolve();
    if (this.#isDrained() || this.#closed) for (const resolve of this.#drainWaiters.splice(0)) resolve();
  }

  #failedWrite(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}
