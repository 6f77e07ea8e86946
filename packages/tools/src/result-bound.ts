import { Buffer } from 'node:buffer';
import { LibosError, type Bounds, type Effect, type ToolFailure } from '@libos/core';
import { mediaMetadataOf, mediaResultOf } from './media/media-result.js';
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
 * The bound of a media result: its bytes within `bounds.media_max_bytes` (a transport carries them
 * once, as media), everything else within `bounds.result_max_bytes`. A result of a media tool that
 * is not a media result is `provider_failure`: no transport could hand it over.
 */
export function assertMediaResultFits(result: object, bounds: Bounds, effect: Effect): void {
  const media = mediaResultOf(result);
  if (media === undefined) {
    throw new LibosError('provider_failure', 'A media tool returned a result that is not a media result.', { effect });
  }
  const mediaBytes = Buffer.byteLength(media.data, 'base64');
  if (mediaBytes > bounds.media_max_bytes) {
    throw new LibosError('result_too_large', `The media is larger than ${bounds.media_max_bytes} bytes (bounds.media_max_bytes).`, {
      effect,
      details: { media_bytes: mediaBytes, max_bytes: bounds.media_max_bytes },
    });
  }
  const metadata = JSON.stringify(mediaMetadataOf(media));
  const metadataBytes = Buffer.byteLength(metadata, 'utf8');
  if (metadataBytes > bounds.result_max_bytes) {
    throw new LibosError('result_too_large', `The result is larger than ${bounds.result_max_bytes} bytes of JSON.`, {
      effect,
      details: { result_bytes: metadataBytes, max_bytes: bounds.result_max_bytes },
    });
  }
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
