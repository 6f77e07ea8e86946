import { Buffer } from 'node:buffer';

interface MeasuredText {
  readonly json: string;
  readonly bytes: number;
}

// The text is kept beside the result, not in it: results keep exactly their schema's fields.
const measuredTexts = new WeakMap<object, MeasuredText>();

/** Records the JSON text a result was measured by, and its UTF-8 size, for `resultJson` and `resultJsonBytes`. */
export function rememberResultJson(result: object, json: string, bytes: number): void {
  measuredTexts.set(result, { json, bytes });
}

/**
 * The JSON text of a successful call's `result`, exactly as the runtime measured it against
 * `bounds.result_max_bytes` when the call returned, so an app that sends the text (MCP's text block)
 * does not serialize a large listing a second time. Read it before changing the result: the text is
 * the result as returned. A value the runtime never returned is serialized here.
 */
export function resultJson(result: object): string {
  return measuredTexts.get(result)?.json ?? JSON.stringify(result);
}

/**
 * The UTF-8 size of `resultJson(result)`, as measured when the call returned: an app that bounds
 * what it writes (MCP's reply size) need not count megabytes of text again.
 */
export function resultJsonBytes(result: object): number {
  return measuredTexts.get(result)?.bytes ?? Buffer.byteLength(resultJson(result), 'utf8');
}
