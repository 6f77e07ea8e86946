import { Buffer } from 'node:buffer';
import { LibosError, type Bounds, type Effect, type ToolFailure } from '@libos/core';
import { rememberResultJson } from './result-json.js';

/**
 * Throws `result_too_large` (no content) when a result's JSON is over `bounds.result_max_bytes`.
 * `effect` says whether the call already changed something by the time its result is measured.
 * A result that fits keeps its measured text for `resultJson`.
 */
export function assertResultFits(result: object, bounds: Bounds, effect: Effect): void {
  const json = JSON.stringify(result);
  const resultBytes = Buffer.byteLength(json, 'utf8');
  if (resultBytes <= bounds.result_max_bytes) {
    rememberResultJson(result, json, resultBytes);
    return;
  }
  throw new LibosError('result_too_large', `The result is larger than ${bounds.result_max_bytes} bytes of JSON.`, {
    effect,
    details: { result_bytes: resultBytes, max_bytes: bounds.result_max_bytes },
  });
}

/**
 * A failure whose details echo huge arguments (an 8 MiB Object name) would break the same transports
 * the result bound protects, so over `bounds.result_max_bytes` it keeps only its code, message and effect.
 */
export function boundedFailure(failure: ToolFailure, bounds: Bounds): ToolFailure {
  if (failure.details === undefined || Buffer.byteLength(JSON.stringify(failure), 'utf8') <= bounds.result_max_bytes) return failure;
  const { details: _dropped, ...bare } = failure;
  return bare;
}
