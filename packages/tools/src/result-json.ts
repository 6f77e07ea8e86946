// The text is kept beside the result, not in it: results keep exactly their schema's fields.
const measuredTexts = new WeakMap<object, string>();

/** Records the JSON text a result was measured by, for `resultJson`. */
export function rememberResultJson(result: object, json: string): void {
  measuredTexts.set(result, json);
}

/**
 * The JSON text of a successful call's `result`, exactly as the runtime measured it against
 * `bounds.result_max_bytes` when the call returned, so an app that sends the text (MCP's text block)
 * does not serialize a large listing a second time. Read it before changing the result: the text is
 * the result as returned. A value the runtime never returned is serialized here.
 */
export function resultJson(result: object): string {
  return measuredTexts.get(result) ?? JSON.stringify(result);
}
