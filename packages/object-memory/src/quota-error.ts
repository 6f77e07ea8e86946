import { LibosError } from '@libos/core';
import type { ObjectStoreCreateOptions, ObjectStoreUsage } from './object-store.js';

/**
 * The `quota_exceeded` failure of a create refused by a quota (effect `none`), with the message and
 * details every store gives, so a user sees the same failure whichever store said no.
 */
export function quotaExceeded(
  quota: 'objects_max_count' | 'objects_max_bytes',
  usage: ObjectStoreUsage,
  options: ObjectStoreCreateOptions,
): LibosError {
  if (quota === 'objects_max_count') {
    return new LibosError('quota_exceeded', `Object Memory holds ${usage.objects} Objects; the quota is ${options.quota.maxObjectsCount}.`, {
      effect: 'none',
      details: { quota, live_objects: usage.objects, max_count: options.quota.maxObjectsCount },
    });
  }
  return new LibosError(
    'quota_exceeded',
    `Object Memory holds ${usage.bytes} payload bytes; ${options.payloadBytes} more would pass the ${options.quota.maxObjectsBytes}-byte quota.`,
    {
      effect: 'none',
      details: { quota, live_bytes: usage.bytes, payload_bytes: options.payloadBytes, max_bytes: options.quota.maxObjectsBytes },
    },
  );
}
