import type { CallResult, ToolFailure } from '@libos/core';
import { mediaResultOf, resultJson, resultJsonBytes } from '@libos/tools';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { KnownStructure } from './serialized-message.js';
import { toMediaCallToolResult } from './to-media-content.js';

/** The failure object as every app prints it: `details` is always present (empty when the tool gave none). */
export function failureJson(error: ToolFailure): { code: string; message: string; effect: string; details: unknown } {
  return { code: error.code, message: error.message, effect: error.effect, details: error.details ?? {} };
}

/**
 * The one place a call outcome becomes an MCP result. A failure never carries `structuredContent`:
 * SDK clients validate it against the output schema even when `isError` is set.
 */
export function toCallToolResult(outcome: CallResult): CallToolResult {
  if (outcome.ok) {
    const media = mediaResultOf(outcome.result);
    if (media !== undefined) return toMediaCallToolResult(media);
    // The text the runtime measured against result_max_bytes: a 10,000-entry listing is serialized once, not twice.
    return { structuredContent: outcome.result, content: [{ type: 'text', text: resultJson(outcome.result) }] };
  }
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: failureJson(outcome.error) }) }] };
}

/** A successful result with the JSON its text block carries and that text's size, both as measured when the call returned. */
export function knownStructure(result: Record<string, unknown>): KnownStructure | undefined {
  // A media result's structuredContent is not the result (its bytes travel as media): serialized as sent.
  if (mediaResultOf(result) !== undefined) return undefined;
  return { value: result, json: resultJson(result), bytes: resultJsonBytes(result) };
}

/** What a call that threw (a bug, never a tool failure) reports: the host state is unknown. */
export const UNEXPECTED_FAILURE: ToolFailure = {
  code: 'provider_failure',
  message: 'The call failed unexpectedly inside the libos server; the workspace may have changed, so look before retrying.',
  effect: 'unknown',
};
