import { LibosError, type FileSystemProviderV1 } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { createTestbed } from './support/harness.js';

// The end of the call pipeline: what a result or a failure looks like once a tool has run
// (call-pipeline.test.ts has the gates before it).

describe('result bound and host failures', () => {
  it('fails with result_too_large and no content when the result JSON is over the bound', async () => {
    const bed = await createTestbed({ config: { bounds: { result_max_bytes: 300 } } });
    await bed.fixtures.writeFile('big.txt', 'y'.repeat(400));
    await bed.fixtures.writeFile('small.txt', 'y'.repeat(10));
    const outcome = await bed.call('read_text_file', { path: 'big.txt' });
    expect(outcome).toEqual({ ok: false, error: expect.objectContaining({ code: 'result_too_large', effect: 'none' }) });
    expect(JSON.stringify(outcome)).not.toContain('yyyy');
    expect(await bed.ok('read_text_file', { path: 'small.txt' })).toMatchObject({ content: 'y'.repeat(10) });
  });

  it('keeps a failure within result_max_bytes by dropping details that echo huge arguments', async () => {
    const bed = await createTestbed({ config: { bounds: { result_max_bytes: 1000 } } });
    await bed.fixtures.writeFile('a.txt', 'x');
    const huge = '"'.repeat(5000);
    const cases: [string, Record<string, unknown>, string][] = [
      ['create_object_from_file', { name: 'a', path: 'a.txt', object_type: huge }, 'invalid_object_type'],
      ['create_object_from_file', { name: `${huge}/`, path: 'a.txt' }, 'invalid_name'],
      ['create_object_from_file', { name: 'a', path: 'a.txt', namespace: ` ${huge}` }, 'invalid_namespace'],
      ['write_object_to_file', { name: huge, path: 'b.txt' }, 'object_not_found'],
    ];
    for (const [tool, args, code] of cases) {
      const outcome = await bed.call(tool, args);
      expect(outcome).toMatchObject({ ok: false, error: { code, effect: 'none' } });
      expect(Buffer.byteLength(JSON.stringify(outcome), 'utf8'), code).toBeLessThanOrEqual(1000);
      // Dropped to fit, but still present, as MCP failures always carry it.
      expect(outcome.ok ? undefined : outcome.error.details, code).toEqual({});
    }
    expect((await bed.fail('create_object_from_file', { name: 'a', path: 'a.txt', object_type: 'nope' })).details).toEqual({ object_type: 'nope' });
  });

  it('turns a foreign exception into provider_failure with effect unknown and no host detail', async () => {
    const { provider } = createMemfsTestbed();
    const broken: FileSystemProviderV1 = {
      ...provider,
      readFile: async () => {
        throw new Error('EIO: i/o error, open /srv/secret/host/path');
      },
      listDirectory: () => {
        throw new TypeError('synchronous /srv/secret failure');
      },
    };
    const process = (await createRuntime({ provider: broken })).spawn();
    for (const [tool, args] of [
      ['read_text_file', { path: 'a' }],
      ['read_directory', { path: '.' }],
    ] as const) {
      const outcome = await process.call(tool, args);
      expect(outcome).toMatchObject({ ok: false, error: { code: 'provider_failure', effect: 'unknown' } });
      expect(JSON.stringify(outcome)).not.toContain('/srv');
    }
  });

  it('always carries details, {} when the tool gave none, as MCP failures do', async () => {
    const process = (await createRuntime({ provider: createMemfsTestbed().provider })).spawn();
    for (const args of [[1], 'x', null]) {
      expect(await process.call('read_directory' as string, args)).toEqual({
        ok: false,
        error: { code: 'invalid_arguments', message: expect.any(String), effect: 'none', details: {} },
      });
    }
  });

  it('passes a provider LibosError through with its effect', async () => {
    const { provider } = createMemfsTestbed();
    const failing: FileSystemProviderV1 = {
      ...provider,
      deleteDirectory: async () => {
        throw new LibosError('directory_not_empty', 'The directory "d" is not empty.', { details: { path: 'd' } });
      },
    };
    const outcome = await (await createRuntime({ provider: failing })).spawn().call('delete_directory', { path: 'd' });
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'directory_not_empty', message: 'The directory "d" is not empty.', effect: 'none', details: { path: 'd' } },
    });
  });
});
