import type { Readable, Writable } from 'node:stream';
import type { MessageChannel, MessageSink } from './message-channel.js';
import { lineOf } from './serialized-message.js';

const NEWLINE = 0x0a;

/**
 * A sink that writes newline-delimited JSON to a stream and settles when the stream has handed
 * the bytes on (its write callback), so a reader that never reads keeps them counted as unwritten.
 * Each line is one buffer, which a pipe writes from without copying it again (a string would be
 * copied whole into native memory first).
 */
export function streamSink(output: Writable): MessageSink {
  return (_message, serialized) =>
    new Promise((resolve, reject) => {
      output.write(lineOf(serialized), (error) => (error ? reject(error) : resolve()));
    });
}

/**
 * Reads newline-delimited messages from `input` into `channel`, reading no line while the channel
 * is not readable (so the OS pipe fills and the client's writes wait: back-pressure), and returns
 * once the input has ended and every request read has been answered and written.
 */
export async function serveLines(channel: MessageChannel, input: Readable): Promise<void> {
  let pending: Buffer | undefined;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    const data = pending === undefined ? chunk : Buffer.concat([pending, chunk]);
    pending = undefined;
    let start = 0;
    while (start < data.length) {
      const newline = data.indexOf(NEWLINE, start);
      if (newline === -1) {
        pending = data.subarray(start);
        break;
      }
      await channel.whenReadable();
      channel.receiveLine(data.subarray(start, newline));
      start = newline + 1;
    }
  }
  // A last line without a newline is not a message (the SDK's transport ignores it too).
  channel.endOfInput();
  await channel.drained();
}
