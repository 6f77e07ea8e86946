import { Transform, type TransformCallback } from 'node:stream';

/** What is left of a JSON-RPC line that was too long to read: enough to answer it. */
export interface OversizeLine {
  /** The request id, when the line's start or end shows it. */
  readonly id: string | number | undefined;
  /** The method, when the line's start shows it. */
  readonly method: string | undefined;
  /** The line's length in bytes. */
  readonly bytes: number;
}

/** Bytes kept of each end of a dropped line: ids and methods sit at one end or the other. */
const KEPT_BYTES = 4096;
const NEWLINE = 0x0a;
const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,256}")`;
/** SDK clients put the id last (`…,"jsonrpc":"2.0","id":7}`): anchored at the end, only the outer object's id matches. */
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`, 'u');
/** Others put it first (`{"jsonrpc":"2.0","id":7,…`). */
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`, 'u');
const METHOD = /^\s*\{[^{}]*?"method"\s*:\s*"([^"\\]{1,128})"/u;

/**
 * Sits between stdin and the SDK's stdio transport. Lines up to `maxLineBytes` pass through whole
 * (one chunk per line, so the transport's buffer never grows quadratically); a longer line is
 * dropped as it streams, keeping only its two ends, and reported to `onOversize` so the server can
 * answer that request instead of the transport closing the whole session.
 */
export class OversizeLineFilter extends Transform {
  #held: Buffer[] = [];
  #heldBytes = 0;
  #dropping: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onOversize: (line: OversizeLine) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      this.#take(chunk.subarray(start, end), newline !== -1);
      start = end;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    // A last line without a newline is never a message: the transport would ignore it too.
    this.#held = [];
    this.#dropping = undefined;
    done();
  }

  #take(piece: Buffer, endsLine: boolean): void {
    if (this.#dropping === undefined && this.#heldBytes + piece.length > this.maxLineBytes) {
      const head = Buffer.concat([...this.#held, piece], Math.min(KEPT_BYTES, this.#heldBytes + piece.length));
      this.#dropping = { head, tail: Buffer.alloc(0), bytes: this.#heldBytes };
      this.#held = [];
      this.#heldBytes = 0;
    }
    if (this.#dropping !== undefined) {
      const dropping = this.#dropping;
      dropping.bytes += piece.length;
      dropping.tail = Buffer.concat([dropping.tail, piece]).subarray(-KEPT_BYTES);
      if (endsLine) {
        this.#dropping = undefined;
        this.onOversize(describe(dropping.head.toString('utf8'), dropping.tail.toString('utf8'), dropping.bytes));
      }
      return;
    }
    this.#held.push(piece);
    this.#heldBytes += piece.length;
    if (endsLine) {
      this.push(this.#held.length === 1 ? this.#held[0] : Buffer.concat(this.#held, this.#heldBytes));
      this.#held = [];
      this.#heldBytes = 0;
    }
  }
}

function describe(head: string, tail: string, bytes: number): OversizeLine {
  const idText = ID_AT_END.exec(tail)?.[1] ?? ID_AT_START.exec(head)?.[1];
  return { id: idText === undefined ? undefined : parseId(idText), method: METHOD.exec(head)?.[1], bytes };
}

function parseId(text: string): string | number | undefined {
  try {
    return JSON.parse(text) as string | number;
  } catch {
    return undefined;
  }
}
