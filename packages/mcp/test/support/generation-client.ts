import type { PassThrough } from 'node:stream';
import {
  Client,
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { type Generation, MODERN, type Served } from './generations.js';

/**
 * A stdio-shaped client transport over the streams `serve('stdio')` listens on: the bytes a client
 * process would write to the server's stdin and read from its stdout, without a child process.
 */
class StreamClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #buffer = new ReadBuffer();

  constructor(private readonly streams: { readonly input: PassThrough; readonly output: PassThrough }) {}

  async start(): Promise<void> {
    this.streams.output.on('data', this.#onData);
  }

  readonly #onData = (chunk: Buffer) => {
    this.#buffer.append(chunk);
    for (let message = this.#buffer.readMessage(); message !== null; message = this.#buffer.readMessage()) this.onmessage?.(message);
  };

  async send(message: JSONRPCMessage): Promise<void> {
    this.streams.input.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.streams.output.off('data', this.#onData);
    this.onclose?.();
  }
}

/**
 * An SDK v2 client of `generation` connected to `served`: pinned to 2026-07-28 (no `initialize`, the
 * version in `_meta` of every request), or the plain 2025 connect sequence (`initialize`, a session).
 */
export async function openClient(served: Served, generation: Generation, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client(
    { name: 'generations-test', version: '1' },
    { versionNegotiation: { mode: generation === MODERN ? { pin: MODERN } : 'legacy' } },
  );
  const transport =
    served.transport === 'http'
      ? new StreamableHTTPClientTransport(served.url!, { requestInit: { headers } })
      : new StreamClientTransport(served.stdio!);
  await client.connect(transport);
  // A client that fell back to the other generation would make every test of this one vacuous.
  if (client.getNegotiatedProtocolVersion() !== generation) {
    throw new Error(`the client negotiated ${client.getNegotiatedProtocolVersion()}, not ${generation}`);
  }
  return client;
}
