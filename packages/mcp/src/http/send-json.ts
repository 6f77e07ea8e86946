import type { ServerResponse } from 'node:http';
import { type ExternalId, errorAnswer } from '../json-rpc.js';

/** Answers a request the server refuses itself, as JSON; a response already begun is just ended. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A JSON-RPC error outside any session (id null unless the request's own is known). */
export function rpcError(code: number, message: string, id: ExternalId = null) {
  return errorAnswer(id, code, message);
}
