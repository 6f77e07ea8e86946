import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { serveHttp, type HttpServer, type ServeHttpOptions } from '../../src/http/serve-http.js';

export const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
} as const;

/** An in-process HTTP server over a memfs workspace holding `files`. */
export async function startHttp(files: Record<string, string>, options: ServeHttpOptions = {}) {
  const { provider, fixtures } = createMemfsTestbed();
  for (const [path, content] of Object.entries(files)) await fixtures.writeFile(path, content);
  const runtime = await createRuntime({ provider });
  const server: HttpServer = await serveHttp(runtime, { log: () => {}, ...options });
  const url = new URL(server.url);
  return {
    server,
    url,
    async close() {
      await server.close();
      await runtime.close();
    },
    /** A session opened by a raw initialize: its id and the headers its requests carry. */
    async openSession(extra: Record<string, string> = {}) {
      const opened = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...extra }, body: JSON.stringify(INITIALIZE) });
      await opened.text();
      const id = opened.headers.get('mcp-session-id');
      if (id === null) throw new Error(`initialize failed with ${opened.status}`);
      const headers = { ...HEADERS, ...extra, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
      await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
      return { id, headers };
    },
  };
}

/** One POST of `body` as raw HTTP/1.1 bytes, for clients no fetch would be (pipelining, lies). */
export function rawPost(url: URL, headers: Record<string, string>, body: string): string {
  const lines = [`POST ${url.pathname} HTTP/1.1`, `host: ${url.host}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** A raw TCP connection to the server, open. */
export function rawConnection(url: URL, localAddress?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), ...(localAddress === undefined ? {} : { localAddress }) });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A tools/call over fetch, answered as JSON or one SSE event; rejects after `timeoutMs`. */
export async function callTool(url: URL, headers: Record<string, string>, id: number, name: string, args: unknown, timeoutMs = 30_000) {
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  const data = text.startsWith('{') ? text : (/^data: (.*)$/mu.exec(text)?.[1] ?? text);
  return { status: response.status, message: JSON.parse(data) as { result?: { isError?: boolean; structuredContent?: Record<string, unknown> } } };
}

/** A POST through node:http from `localAddress` (another loopback source than the attacker's). */
export function postFrom(
  url: URL,
  localAddress: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', localAddress, headers: { ...headers, 'content-length': Buffer.byteLength(body) }, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
