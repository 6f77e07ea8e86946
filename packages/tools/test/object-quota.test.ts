import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createTestbed } from './support/harness.js';

// A full collection on demand, so retained memory is measured, not garbage the collector has not reached yet.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function retainedBytes(): number {
  collectGarbage();
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

describe('Object Memory quotas through create_object_from_file', () => {
  it('refuses the import past objects_max_count with quota_exceeded and effect none', async () => {
    const bed = await createTestbed({ config: { bounds: { objects_max_count: 2 } } });
    await bed.fixtures.writeFile('a.txt', 'text');
    await bed.ok('create_object_from_file', { name: 'one', path: 'a.txt' });
    await bed.ok('create_object_from_file', { name: 'two', path: 'a.txt' });
    const error = await bed.fail('create_object_from_file', { name: 'three', path: 'a.txt' });
    expect(error).toMatchObject({ code: 'quota_exceeded', effect: 'none', details: { quota: 'objects_max_count' } });
    expect(await bed.runtime.objects.find(bed.process.namespace, 'three')).toBeUndefined();
    expect(await bed.runtime.objects.usage()).toMatchObject({ objects: 2, maxObjectsCount: 2 });
  });

  it('keeps retained memory bounded while imports past objects_max_bytes are refused', async () => {
    const fileBytes = 8 * 1024 * 1024;
    const quota = 32 * 1024 * 1024;
    const bed = await createTestbed({ config: { bounds: { objects_max_bytes: quota } } });
    await bed.fixtures.writeFile('big.txt', 'x'.repeat(fileBytes));
    const before = retainedBytes();
    const codes: string[] = [];
    // 40 imports would keep 320 MiB of text if nothing refused them.
    for (let index = 0; index < 40; index++) {
      const outcome = await bed.call('create_object_from_file', { name: `big ${index}`, path: 'big.txt', max_bytes: fileBytes });
      codes.push(outcome.ok ? 'ok' : outcome.error.code);
    }
    expect(codes.slice(0, 3)).toEqual(['ok', 'ok', 'ok']);
    expect(new Set(codes.slice(3))).toEqual(new Set(['quota_exceeded']));
    const usage = await bed.runtime.objects.usage();
    expect(usage.objects).toBe(3);
    expect(usage.bytes).toBeLessThanOrEqual(quota);
    // The three stored texts (24 MiB) plus slack; without the quota this would be over 300 MiB.
    expect(retainedBytes() - before).toBeLessThan(64 * 1024 * 1024);
  });
});
