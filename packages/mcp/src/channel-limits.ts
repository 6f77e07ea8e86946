/** The bounds one MCP session keeps, whatever its client does (CONTRACT.md sections 6 and 8). */
export interface ChannelLimits {
  /** Requests handed to the server and not yet answered; at the bound, reading stops. */
  readonly maxCallsInFlight: number;
  /** Reply bytes given to the writer and not yet written out; at the bound, reading stops. */
  readonly maxUnwrittenBytes: number;
  /** The largest reply ever sent, as written (JSON plus newline); a larger one is replaced. */
  readonly maxReplyBytes: number;
  /**
   * Requests read while the server waits on the client (an approval asked by elicitation): the
   * client's answer may sit behind them, so reading goes on past the other bounds, but only this far.
   */
  readonly maxParkedRequests: number;
  /** The same, in bytes of request JSON. */
  readonly maxParkedBytes: number;
}

/**
 * The defaults. 10,000,000 bytes keeps every reply under the 10 MiB an SDK client reads at once,
 * with room for the 64 KiB chunk that may follow it in the client's buffer. Eight calls of up to
 * about 30 MB each in memory (a 4 MiB result, its escaped JSON text, the written line) plus 8 MiB
 * of unwritten replies keep a session whose client never reads under 300 MiB.
 */
export const DEFAULT_CHANNEL_LIMITS: ChannelLimits = {
  maxCallsInFlight: 8,
  maxUnwrittenBytes: 8 * 1024 * 1024,
  maxReplyBytes: 10_000_000,
  maxParkedRequests: 64,
  maxParkedBytes: 16 * 1024 * 1024,
};

/** Room for the JSON-RPC envelope around the largest arguments the bounds accept. */
const ENVELOPE_MARGIN_BYTES = 1024 * 1024;
/** The SDK's own default; never go below it. */
const SDK_MAX_BUFFER_BYTES = 10 * 1024 * 1024;

/** The largest message a session reads (a stdio line, an HTTP body): the arguments bound plus the envelope. */
export function maxMessageBytes(argumentsMaxBytes: number): number {
  return Math.max(SDK_MAX_BUFFER_BYTES, argumentsMaxBytes + ENVELOPE_MARGIN_BYTES);
}
