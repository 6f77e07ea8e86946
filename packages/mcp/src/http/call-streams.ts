import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { type ExternalId, idKey } from '../json-rpc.js';
import type { SerializedMessage } from '../serialized-message.js';
import { rpcError } from './send-json.js';

/** The SSE stream of one POSTed request: its reply and the server's messages about it. */
interface CallStream {
  readonly response: ServerResponse;
  readonly connection: Socket;
}

/**
 * The POSTs of an initialized session, answered without the SDK transport's web-stream bridge:
 * each request's response is an SSE stream written straight to Node's response, carrying the
 * messages the server sends about that request (an approval's elicitation) and then its reply, as
 * the SDK transport would write them. The SDK still does everything of the protocol (the channel
 * hands every message to its Server); `initialize`, the GET stream and DELETE stay with its
 * transport. The bridge measured as most of an HTTP call's cost (docs/mcp.md).
 */
export function createCallStreams(sessionId: () => string | undefined) {
  const streams = new Map<string, CallStream>();

  /**
   * A reply that comes first goes as one JSON body (the client accepts both, and parses JSON for a
   * fraction of what an SSE stream costs it); once the server has something to say before the reply
   * (an approval's elicitation), the response is an SSE stream carrying both.
   */
  function writeMessage(stream: CallStream, serialized: SerializedMessage, isReply: boolean): void {
    const { response } = stream;
    if (response.destroyed || response.writableEnded) return;
    const session = sessionId();
    const id = session === undefined ? {} : { 'mcp-session-id': session };
    if (!response.headersSent && isReply) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': serialized.bytes - 1, ...id });
      for (const part of serialized.parts) response.write(part);
      return;
    }
    if (!response.headersSent) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...id });
    }
    response.cork();
    response.write('event: message\ndata: ');
    for (const part of serialized.parts) response.write(part);
    response.write('\n\n');
    process.nextTick(() => response.uncork());
  }

  return {
    /** Whether a request under `id` is still waiting for its reply here. */
    has(id: ExternalId): boolean {
      return streams.has(idKey(id));
    },

    /** Opens the stream the reply to request `id` will travel on. */
    open(id: ExternalId, response: ServerResponse, connection: Socket): void {
      streams.set(idKey(id), { response, connection });
    },

    /**
     * Writes a message on the stream of the request it answers or relates to; undefined when no
     * such stream is open here (the SDK transport routes it). Settles once a reply has been sent
     * whole or its connection is gone, so an unread reply stays counted as unwritten.
     */
    write(message: object, serialized: SerializedMessage, related: ExternalId | undefined, isReply: boolean): Promise<void> | undefined {
      const key = idKey((isReply ? (message as { id?: unknown }).id : related) as ExternalId);
      const stream = streams.get(key);
      if (stream === undefined) return undefined;
      writeMessage(stream, serialized, isReply);
      if (!isReply) return Promise.resolve();
      streams.delete(key);
      stream.response.end();
      return whenSent(stream.response, stream.connection);
    },

    /** Ends every stream still open (the session is closing). */
    endAll(): void {
      for (const { response } of streams.values()) if (!response.writableEnded) response.end();
      streams.clear();
    },
  };
}

/**
 * What the SDK transport checks of a POST before it reads it: an `Accept` taking both JSON and
 * SSE, a JSON body, and a protocol version it supports. Undefined when the request passes.
 */
export function refusePost(request: IncomingMessage): { status: number; body: unknown } | undefined {
  const accept = request.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return { status: 406, body: rpcError(-32000, 'Not Acceptable: Client must accept both application/json and text/event-stream') };
  }
  if (!(request.headers['content-type'] ?? '').includes('application/json')) {
    return { status: 415, body: rpcError(-32000, 'Unsupported Media Type: Content-Type must be application/json') };
  }
  const version = request.headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
    return {
      status: 400,
      body: rpcError(
        -32000,
        `Bad Request: Unsupported protocol version: ${String(version)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      ),
    };
  }
  return undefined;
}

/**
 * Resolves when the response has been handed to the OS whole, or its connection is gone. A response
 * queued behind others on a pipelined HTTP/1.1 connection has no socket of its own yet, and when
 * that connection is destroyed Node emits neither `close` nor `finish` for it: the connection's
 * own `close` releases it, or its reply bytes would stay counted as unwritten for good.
 */
export function whenSent(response: ServerResponse, connection: Socket): Promise<void> {
  if (response.writableFinished || response.destroyed || connection.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = AsyncResource.bind(() => {
      response.off('close', done);
      response.off('finish', done);
      connection.off('close', done);
      resolve();
    });
    response.once('close', done);
    response.once('finish', done);
    connection.once('close', done);
  });
}
