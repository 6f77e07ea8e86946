import { PassThrough } from 'node:stream';
import { createMemfsTestbed, type MemfsFixtures } from '@libos/provider-memfs/testing';
import { createRuntime, type Runtime, type RuntimeOptions } from '@libos/tools';
import { serveHttp, type HttpServer, type ServeHttpOptions } from '../../src/http/serve-http.js';
import type { McpRuntime } from '../../src/mcp-runtime.js';
import { serveStdio, type ServeStdioOptions, type StdioSession } from '../../src/serve-stdio.js';

/** The two protocol generations the server speaks (docs/mcp.md, "Two protocol generations"). */
export type Generation = '2026-07-28' | '2025-11-25';
export type TransportName = 'stdio' | 'http';

export const MODERN: Generation = '2026-07-28';
export const LEGACY: Generation = '2025-11-25';
export const GENERATIONS: readonly Generation[] = [MODERN, LEGACY];
/** Every generation over every transport, as `describe.each` rows. */
export const EVERY_WAY: readonly { readonly generation: Generation; readonly transport: TransportName }[] = GENERATIONS.flatMap((generation) =>
  (['stdio', 'http'] as const).map((transport) => ({ generation, transport })),
);

/** The client name every raw connection of these helpers announces (in `initialize`, or in `_meta`). */
export const RAW_CLIENT = { name: 'raw', version: '0' } as const;
export const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;

/** The `_meta` envelope a 2026-07-28 client puts on every request. */
export function modernEnvelope(capabilities: Record<string, unknown> = { elicitation: {} }): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': RAW_CLIENT,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A request as `generation` sends it: under 2026-07-28 its `params` carry the `_meta` envelope (made
 * an object when absent); under 2025-11-25 it is left as it is. Anything that cannot carry `_meta`
 * (not an object, no method, params that are not an object) is left as it is under both.
 */
export function asGeneration(generation: Generation, message: unknown): unknown {
  if (generation === LEGACY || !isObject(message) || typeof message.method !== 'string') return message;
  if (message.params !== undefined && !isObject(message.params)) return message;
  const params = message.params ?? {};
  if (params._meta !== undefined && !isObject(params._meta)) return message;
  return { ...message, params: { ...params, _meta: { ...modernEnvelope(), ...(params._meta ?? {}) } } };
}

/** One JSON-RPC answer as a test reads it. */
export interface Answer {
  readonly jsonrpc?: string;
  readonly id?: unknown;
  readonly method?: string;
  readonly error?: { readonly code: number; readonly message: string };
  readonly result?: {
    readonly isError?: boolean;
    readonly structuredContent?: Record<string, unknown>;
    readonly content?: { readonly type: string; readonly text?: string }[];
    readonly [key: string]: unknown;
  };
}

/** What one message got back: the HTTP status (over HTTP) and the answers it carried. */
export interface Exchange {
  readonly status?: number;
  readonly answers: Answer[];
}

/** A served workspace: a memfs runtime (or one given) behind stdio or HTTP. */
export interface Served {
  readonly transport: TransportName;
  readonly runtime: McpRuntime;
  /** The HTTP endpoint (HTTP only). */
  readonly url?: URL;
  readonly http?: HttpServer;
  /** The memfs workspace's fixtures (when `serve` made the runtime). */
  readonly fixtures?: MemfsFixtures | undefined;
  /** The streams a stdio client talks on, and the server's session on them (stdio only). */
  readonly stdio?: { readonly input: PassThrough; readonly output: PassThrough; readonly session: StdioSession };
  /**
   * A raw JSON-RPC connection of `generation` (over stdio: the one connection there is). A 2025-era
   * connection declares `capabilities` in `initialize` (default: form elicitation over stdio, none over HTTP).
   */
  connect(generation: Generation, headers?: Record<string, string>, capabilities?: Record<string, unknown>): Promise<RawConnection>;
  close(): Promise<void>;
}

export interface ServeOptions {
  readonly files?: Record<string, string | Uint8Array>;
  /** Directories made before the files (for grants on a directory that starts empty). */
  readonly directories?: readonly string[];
  readonly runtime?: McpRuntime;
  readonly runtimeOptions?: Omit<RuntimeOptions, 'provider'>;
  readonly http?: ServeHttpOptions;
  readonly stdio?: Omit<ServeStdioOptions, 'input' | 'output'>;
}

/** Serves a workspace over `transport` (a memfs one holding `files`, unless a runtime is given). */
export async function serve(transport: TransportName, options: ServeOptions = {}): Promise<Served> {
  let owned: Runtime | undefined;
  let fixtures: MemfsFixtures | undefined;
  let runtime = options.runtime;
  if (runtime === undefined) {
    const testbed = createMemfsTestbed();
    const { provider } = testbed;
    fixtures = testbed.fixtures;
    for (const path of options.directories ?? []) await fixtures.makeDirectory(path);
    for (const [path, content] of Object.entries(options.files ?? {})) await fixtures.writeFile(path, content);
    owned = await createRuntime({ ...options.runtimeOptions, provider });
    runtime = owned;
  }
  const closeRuntime = async () => owned?.close();
  if (transport === 'http') {
    const http = await serveHttp(runtime, { log: () => {}, ...options.http });
    const url = new URL(http.url);
    return {
      transport,
      runtime,
      fixtures,
      url,
      http,
      connect: (generation, headers = {}, capabilities = {}) => connectHttp(url, generation, headers, capabilities),
      async close() {
        await http.close();
        await closeRuntime();
      },
    };
  }
  const input = new PassThrough();
  const output = new PassThrough();
  const session = await serveStdio(runtime, { log: () => {}, ...options.stdio, input, output });
  return {
    transport,
    runtime,
    fixtures,
    stdio: { input, output, session },
    connect: (generation, _headers, capabilities = { elicitation: {} }) => connectStdio(generation, input, output, capabilities),
    async close() {
      input.end();
      await session.close();
      await closeRuntime();
    },
  };
}

/** A raw JSON-RPC connection: exact bytes in, every answer out. */
export interface RawConnection {
  readonly generation: Generation;
  /** Headers of this connection's POSTs (HTTP only): the session's, or the 2026-07-28 routing ones. */
  readonly headers: Record<string, string>;
  /** Sends `message` (a string is sent as exactly those bytes; anything else as `asGeneration` makes it). */
  exchange(message: unknown): Promise<Exchange>;
  /** The one answer under `message`'s id (exchange, then the answer whose id is the message's). */
  request(message: Record<string, unknown>): Promise<Answer>;
}

const bodyOf = (generation: Generation, message: unknown) =>
  typeof message === 'string' ? message : JSON.stringify(asGeneration(generation, message));

/** The routing headers 2026-07-28 asks of a POST, taken from the body itself so they always agree. */
function modernHeaders(body: string): Record<string, string> {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return { 'mcp-protocol-version': MODERN };
  }
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN };
  if (!isObject(message) || typeof message.method !== 'string') return headers;
  headers['mcp-method'] = message.method;
  const name = isObject(message.params) ? message.params.name : undefined;
  if (typeof name === 'string' && /^[\x20-\x7e]*$/u.test(name)) headers['mcp-name'] = name;
  return headers;
}

/** The answers in an HTTP response's text: one JSON body (or an array of them), or SSE `data:` lines. */
export function answersIn(text: string): Answer[] {
  if (text.trim() === '') return [];
  if (text.startsWith('{') || text.startsWith('[')) {
    const parsed = JSON.parse(text) as Answer | Answer[];
    return Array.isArray(parsed) ? parsed : [parsed];
  }
  return [...text.matchAll(/^data: (.+)$/gmu)].map((match) => JSON.parse(match[1]!) as Answer);
}

/** A raw connection of `generation` to the MCP endpoint at `url` (2025-11-25: a session is initialized first). */
export async function connectHttp(
  url: URL,
  generation: Generation,
  extra: Record<string, string> = {},
  capabilities: Record<string, unknown> = {},
): Promise<RawConnection> {
  let headers: Record<string, string> = { ...HEADERS, ...extra };
  if (generation === LEGACY) {
    const initialize = { protocolVersion: LEGACY, capabilities, clientInfo: RAW_CLIENT };
    const opened = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize }),
    });
    await opened.text();
    const id = opened.headers.get('mcp-session-id');
    if (id === null) throw new Error(`initialize failed with HTTP ${opened.status}`);
    headers = { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': LEGACY };
    await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  }
  const connection: RawConnection = {
    generation,
    headers,
    async exchange(message) {
      const body = bodyOf(generation, message);
      const routing = generation === MODERN ? modernHeaders(body) : {};
      const response = await fetch(url, { method: 'POST', headers: { ...headers, ...routing }, body });
      return { status: response.status, answers: answersIn(await response.text()) };
    },
    request: async (message) => onlyAnswer(message, (await connection.exchange(message)).answers),
  };
  return connection;
}

function onlyAnswer(message: Record<string, unknown>, answers: readonly Answer[]): Answer {
  const answer = answers.find((candidate) => Object.is(candidate.id, message.id) && candidate.method === undefined);
  if (answer === undefined) throw new Error(`no answer to ${JSON.stringify(message).slice(0, 200)}: ${JSON.stringify(answers).slice(0, 400)}`);
  return answer;
}

/**
 * The one stdio connection. Its answers arrive in any order, so each exchange is followed by a
 * marker request (`tools/list` of the same generation); the exchange gathers what arrives until the
 * marker's answer and, for a request with an id, until that id's answer too.
 */
async function connectStdio(
  generation: Generation,
  input: PassThrough,
  output: PassThrough,
  capabilities: Record<string, unknown>,
): Promise<RawConnection> {
  const arrived: Answer[] = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line !== '') arrived.push(JSON.parse(line) as Answer);
    for (const wake of waiters) wake();
  });
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      if (done()) return resolve();
      const wake = () => {
        if (!done()) return;
        waiters.delete(wake);
        resolve();
      };
      waiters.add(wake);
    });
  let marker = 0;
  const send = (message: unknown) => input.write(`${bodyOf(generation, message)}\n`);
  if (generation === LEGACY) {
    const initialize = { protocolVersion: LEGACY, capabilities, clientInfo: RAW_CLIENT };
    send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: initialize });
    await until(() => arrived.some((answer) => answer.id === 'init'));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  arrived.length = 0;
  const connection: RawConnection = {
    generation,
    headers: {},
    async exchange(message) {
      const from = arrived.length;
      send(message);
      const markerId = `marker-${++marker}`;
      send({ jsonrpc: '2.0', id: markerId, method: 'tools/list' });
      // A string of several lines is several messages written at once: each request's answer is awaited.
      const sent = typeof message === 'string' ? message.split('\n').map(safeParse) : [message];
      const ids = sent.flatMap((parsed) => {
        // A request is answered under its id; one whose id is not an id at all is answered under null.
        const id = isObject(parsed) && typeof parsed.method === 'string' ? parsed.id : undefined;
        return typeof id === 'string' || typeof id === 'number' || id === null ? [id] : [];
      });
      const answered = (id: unknown) => arrived.slice(from).some((answer) => Object.is(answer.id, id) && answer.method === undefined);
      await until(() => answered(markerId) && ids.every(answered));
      return { answers: arrived.slice(from).filter((answer) => answer.id !== markerId) };
    },
    request: async (message) => onlyAnswer(message, (await connection.exchange(message)).answers),
  };
  return connection;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
