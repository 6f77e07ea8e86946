import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';

/** A JSON-RPC id as a client may send it: the SDK itself accepts only strings and safe integers. */
export type ExternalId = string | number | null;

/** JSON-RPC error codes the server answers with itself (-32001: the SDK's "session not found"). */
export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  internalError: -32603,
  sessionNotFound: -32001,
} as const;

/** Map key of a JSON-RPC id: 7 and "7" are different ids. */
export function idKey(id: ExternalId): string {
  return typeof id === 'string' ? `s${id}` : `n${String(id)}`;
}

/** True for what a JSON-RPC id may be as a client sends it. */
export function isExternalId(value: unknown): value is ExternalId {
  return typeof value === 'string' || typeof value === 'number' || value === null;
}

/** A JSON-RPC request (it has an id and waits for an answer), as opposed to a response or notification. */
export function isRequest(message: unknown): message is { id: ExternalId; method: string } {
  return isPlainObject(message) && typeof message.method === 'string' && Object.hasOwn(message, 'id');
}

/** An `initialize` request. */
export function isInitialize(message: unknown): boolean {
  return isRequest(message) && message.method === 'initialize';
}

/** A JSON-RPC response (a result or an error under an id). */
export function isResponse(message: unknown): message is { id: ExternalId } {
  return isPlainObject(message) && Object.hasOwn(message, 'id') && (Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error'));
}

/** One incoming JSON value, sorted. */
export type IncomingMessage =
  /** A request: `body` still carries the client's own id, which the channel replaces before the SDK sees it. */
  | { readonly kind: 'request'; readonly id: ExternalId; readonly method: string; readonly body: Readonly<Record<string, unknown>> }
  | { readonly kind: 'notification'; readonly message: JSONRPCNotification }
  | { readonly kind: 'response'; readonly message: JSONRPCMessage }
  /** Answered at once, never dispatched (a batch, a value that is no request, a bad envelope). */
  | { readonly kind: 'refused'; readonly answers: readonly JSONRPCErrorResponse[] }
  /** Dropped without an answer (JSON-RPC never answers a notification or a response). */
  | { readonly kind: 'ignored'; readonly reason: string };

/** A JSON-RPC error answer; ids the SDK types cannot hold (1e308, null) are written as they came. */
export function errorAnswer(id: ExternalId, code: number, message: string): JSONRPCErrorResponse {
  return { jsonrpc: '2.0', id: id as JSONRPCErrorResponse['id'], error: { code, message } };
}

/**
 * The answer to a message the SDK does not take as a request: -32600 when its envelope is wrong
 * (an unknown top-level key), -32602 when only its `params` are (a `_meta` MCP does not accept).
 */
export function requestRefusal(message: Readonly<Record<string, unknown>>, id: number): JSONRPCErrorResponse {
  const { params: _params, ...envelope } = message;
  if (!isJSONRPCRequest(envelope)) return errorAnswer(id, JSON_RPC.invalidRequest, 'Invalid Request: the message is not a JSON-RPC request.');
  return errorAnswer(
    id,
    JSON_RPC.invalidParams,
    'Invalid params: "params" is not what MCP accepts for this method (its "_meta" must be an object as MCP defines it).',
  );
}

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sorts one parsed line (or HTTP body) the way docs/mcp.md says it is answered: every
 * request with an id gets an answer whatever the id, a batch and anything that is not a request
 * get -32600, and nothing valid is answered twice.
 */
export function classifyMessage(value: unknown): IncomingMessage {
  if (Array.isArray(value)) return refuseBatch(value);
  if (!isPlainObject(value)) {
    return { kind: 'refused', answers: [errorAnswer(null, JSON_RPC.invalidRequest, 'Invalid Request: a message must be a JSON object.')] };
  }
  const hasId = Object.hasOwn(value, 'id');
  const id = hasId && isExternalId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') {
    return { kind: 'refused', answers: [errorAnswer(id, JSON_RPC.invalidRequest, 'Invalid Request: "jsonrpc" must be "2.0".')] };
  }
  if (Object.hasOwn(value, 'method')) {
    if (typeof value.method !== 'string') {
      return { kind: 'refused', answers: [errorAnswer(id, JSON_RPC.invalidRequest, 'Invalid Request: "method" must be a string.')] };
    }
    if (!hasId) {
      if (isJSONRPCNotification(value)) return { kind: 'notification', message: value };
      return { kind: 'ignored', reason: `a malformed ${value.method} notification` };
    }
    if (!isExternalId(value.id)) {
      return { kind: 'refused', answers: [errorAnswer(null, JSON_RPC.invalidRequest, 'Invalid Request: "id" must be a string, a number or null.')] };
    }
    if (Object.hasOwn(value, 'params') && !isPlainObject(value.params)) {
      return { kind: 'refused', answers: [errorAnswer(id, JSON_RPC.invalidParams, 'Invalid params: "params" must be a JSON object.')] };
    }
    return { kind: 'request', id: value.id, method: value.method, body: value };
  }
  if (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error')) {
    if (isJSONRPCResultResponse(value) || isJSONRPCErrorResponse(value)) return { kind: 'response', message: value };
    return { kind: 'ignored', reason: 'a malformed response' };
  }
  return {
    kind: 'refused',
    answers: [errorAnswer(id, JSON_RPC.invalidRequest, 'Invalid Request: a message needs a "method", or a "result" or "error".')],
  };
}

/**
 * MCP has no batches. Each request inside one is refused under its own id, so a client that sent
 * one waits on nothing; a batch holding no request gets one answer with id null.
 */
function refuseBatch(batch: readonly unknown[]): IncomingMessage {
  const message = 'Invalid Request: batches are not supported; send each request as its own message.';
  const answers = batch
    .filter(
      (item): item is Record<string, unknown> =>
        isPlainObject(item) && typeof item.method === 'string' && Object.hasOwn(item, 'id') && isExternalId(item.id),
    )
    .map((item) => errorAnswer(item.id as ExternalId, JSON_RPC.invalidRequest, message));
  return { kind: 'refused', answers: answers.length > 0 ? answers : [errorAnswer(null, JSON_RPC.invalidRequest, message)] };
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * `isJSONRPCRequest` (the SDK's zod schema: a strict envelope, `params` an object whose `_meta`,
 * when present, MCP accepts), with the shape every call has decided here, by plain checks: the
 * schema's parse was a tenth of a small read's time. Anything else (a `_meta`, a string id, an
 * unknown key) still goes to the schema, so the answer is always the schema's.
 */
export function isRequestEnvelope(message: Readonly<Record<string, unknown>>): message is JSONRPCRequest {
  const { params } = message;
  const plain =
    message.jsonrpc === '2.0' &&
    Number.isSafeInteger(message.id) &&
    typeof message.method === 'string' &&
    (params === undefined || (isPlainObject(params) && !Object.hasOwn(params, '_meta') && !('_meta' in params))) &&
    Object.keys(message).every((key) => REQUEST_KEYS.has(key));
  return plain || isJSONRPCRequest(message);
}
