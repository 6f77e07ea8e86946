import type { ApprovalRequest, FileSystemProviderV1 } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { checkedCall, createTestbed } from './support/harness.js';

const CALLS: [string, Record<string, unknown>, 'read' | 'write' | 'delete'][] = [
  ['set_working_directory', { path: 'd' }, 'read'],
  ['read_directory', { path: 'd' }, 'read'],
  ['read_text_file', { path: 'd/f.txt' }, 'read'],
  ['write_text_file', { path: 'd/f.txt', content: 'new' }, 'write'],
  ['write_directory', { path: 'd/sub' }, 'write'],
  ['delete_file', { path: 'd/f.txt' }, 'delete'],
  ['delete_directory', { path: 'd/empty' }, 'delete'],
];

function recording() {
  const { provider, fixtures } = createMemfsTestbed();
  const probes: string[] = [];
  const wrapped = { ...provider } as Record<string, unknown>;
  for (const method of ['stat', 'listDirectory', 'readFile', 'writeFile', 'makeDirectory', 'deleteFile', 'deleteDirectory'] as const) {
    wrapped[method] = (...args: unknown[]) => {
      probes.push(method);
      return (provider[method] as (...inner: unknown[]) => unknown)(...args);
    };
  }
  return { provider: wrapped as unknown as FileSystemProviderV1, fixtures, probes };
}

describe('the right each tool needs', () => {
  it('asks for read, write or delete, and get_working_directory needs none', async () => {
    for (const right of ['read', 'write', 'delete'] as const) {
      const bed = await createTestbed({ config: { grants: [{ path: '.', tree: true, rights: [right] }] } });
      await bed.fixtures.writeFile('d/f.txt', 'old');
      await bed.fixtures.makeDirectory('d/empty');
      for (const [tool, args, needed] of CALLS) {
        const outcome = await checkedCall(bed.runtime, bed.runtime.spawn(), tool, args);
        if (needed === right) expect(outcome.ok, `${tool} with ${right}`).toBe(true);
        else expect(outcome, `${tool} with ${right}`).toMatchObject({ ok: false, error: { code: 'denied', effect: 'none' } });
      }
    }
    const none = await createTestbed({ config: { grants: [{ path: 'elsewhere', rights: ['read'] }] } });
    expect(await none.ok('get_working_directory', {})).toEqual({ working_directory: '.' });
  });

  it('matches directory operations only against tree grants', async () => {
    const bed = await createTestbed({ config: { grants: [{ path: 'd', rights: ['read', 'write', 'delete'] }] } });
    await bed.fixtures.makeDirectory('d');
    for (const [tool, args] of [
      ['read_directory', { path: 'd' }],
      ['set_working_directory', { path: 'd' }],
      ['write_directory', { path: 'd' }],
      ['delete_directory', { path: 'd' }],
    ] as const) {
      expect(await bed.fail(tool, args), tool).toMatchObject({ code: 'denied' });
    }
    expect(await bed.fail('read_text_file', { path: 'd' })).toMatchObject({ code: 'not_a_file' });
    expect(await bed.fail('delete_file', { path: 'd' })).toMatchObject({ code: 'not_a_file' });
  });

  it('decides before any probe, so a denial reads the same whether the path exists or not', async () => {
    const { provider, fixtures, probes } = recording();
    await fixtures.writeFile('d/f.txt', 'x');
    const process = (await createRuntime({ provider, config: { grants: [{ path: 'other', tree: true, rights: ['read'] }] } })).spawn();
    for (const [tool, args] of CALLS) {
      const present = await process.call(tool, args);
      const absent = await process.call(tool, { ...args, path: String(args.path).replace('d', 'zz') });
      expect(present).toMatchObject({ ok: false, error: { code: 'denied', effect: 'none' } });
      if (!present.ok && !absent.ok) expect(absent.error.message).toBe(present.error.message.replace('"d', '"zz'));
    }
    expect(probes).toEqual([]);
  });

  it('spends a use once the probe starts, even when the call then fails; argument errors spend nothing', async () => {
    const bed = await createTestbed({
      config: {
        grants: [
          { path: 'once.txt', rights: ['read'], uses: 1 },
          { path: 'missing.txt', rights: ['read'], uses: 1 },
        ],
      },
    });
    await bed.fixtures.writeFile('once.txt', 'x');
    expect(await bed.fail('read_text_file', { path: 'once.txt', max_bytes: 0 })).toMatchObject({ code: 'invalid_arguments' });
    expect(await bed.fail('read_text_file', { path: 'once.txt', encoding: 'nope' })).toMatchObject({ code: 'unsupported_encoding' });
    expect(await bed.ok('read_text_file', { path: 'once.txt' })).toMatchObject({ content: 'x' });
    expect(await bed.fail('read_text_file', { path: 'once.txt' })).toMatchObject({ code: 'denied' });
    expect(await bed.fail('read_text_file', { path: 'missing.txt' })).toMatchObject({ code: 'not_found' });
    expect(await bed.fail('read_text_file', { path: 'missing.txt' })).toMatchObject({ code: 'denied' });
  });

  it('spends nothing on an argument error of any tool, Object tools included', async () => {
    const bed = await createTestbed({
      config: {
        grants: [
          { path: 'src.txt', rights: ['read'], uses: 1 },
          { path: 'out.txt', rights: ['write'], uses: 1 },
          { path: 'gone.txt', rights: ['delete'], uses: 1 },
        ],
      },
    });
    await bed.fixtures.writeFile('src.txt', 'café');
    const refusals: [string, Record<string, unknown>, string][] = [
      ['write_text_file', { path: 'out.txt', content: 'lone \ud800' }, 'encode_failed'],
      ['write_text_file', { path: 'out.txt', content: 'é', encoding: 'ascii' }, 'encode_failed'],
      ['write_text_file', { path: 'out.txt', content: 'x', expected_content_sha256: 'nope' }, 'invalid_arguments'],
      ['delete_file', { path: 'gone.txt', missing_ok: 'yes' }, 'invalid_arguments'],
      ['create_object_from_file', { name: ' ', path: 'src.txt' }, 'invalid_name'],
      ['create_object_from_file', { name: 'a', path: 'src.txt', namespace: 'x//y' }, 'invalid_namespace'],
      ['create_object_from_file', { name: 'a', path: 'src.txt', object_type: 'nope' }, 'invalid_object_type'],
      ['create_object_from_file', { name: 'a', path: 'src.txt', encoding: 'nope' }, 'unsupported_encoding'],
      ['create_object_from_file', { name: 'a', path: 'src.txt', max_bytes: 0 }, 'invalid_arguments'],
    ];
    for (const [tool, args, code] of refusals) expect(await bed.fail(tool, args), `${tool} ${code}`).toMatchObject({ code, effect: 'none' });
    await bed.ok('create_object_from_file', { name: 'a', path: 'src.txt' });
    for (const [args, code] of [
      [{ name: 'a/b', path: 'out.txt' }, 'invalid_name'],
      [{ name: 'a', path: 'out.txt', namespace: ' a' }, 'invalid_namespace'],
      [{ name: 'a', path: 'out.txt', encoding: 'ascii' }, 'encode_failed'],
      [{ name: 'a', path: '/out.txt' }, 'invalid_path'],
    ] as const) {
      expect(await bed.fail('write_object_to_file', args), code).toMatchObject({ code, effect: 'none' });
    }
    await bed.ok('write_object_to_file', { name: 'a', path: 'out.txt' });
    expect(await bed.fail('write_text_file', { path: 'out.txt', content: 'x' })).toMatchObject({ code: 'denied' });
    expect(await bed.fail('read_text_file', { path: 'src.txt' })).toMatchObject({ code: 'denied' });
    expect(await bed.ok('delete_file', { path: 'gone.txt', missing_ok: true })).toMatchObject({ kind: 'missing' });
  });

  it('asks the approver for an ask grant with the tool, right, path and the encoded content', async () => {
    const { provider, fixtures, probes } = recording();
    const requests: ApprovalRequest[] = [];
    let answer: 'approve' | 'reject' | 'unavailable' = 'reject';
    const runtime = await createRuntime({
      provider,
      config: { grants: [{ path: 'src', tree: true, rights: ['write', 'read'], mode: 'ask' }] },
      approver: async (request) => {
        requests.push(request);
        return answer;
      },
    });
    const process = runtime.spawn();
    const args = { path: 'src/a.txt', content: 'héllo' };
    expect(await process.call('write_text_file', args)).toMatchObject({ ok: false, error: { code: 'approval_rejected', effect: 'none' } });
    answer = 'unavailable';
    expect(await process.call('write_text_file', args)).toMatchObject({ ok: false, error: { code: 'approval_required', effect: 'none' } });
    expect(probes).toEqual([]);
    answer = 'approve';
    expect(await process.call('write_text_file', args)).toMatchObject({ ok: true, result: { path: 'src/a.txt', created: true } });
    expect(requests[0]).toMatchObject({ tool: 'write_text_file', right: 'write', path: 'src/a.txt', content_bytes: 6 });
    expect(requests[0]!.arguments_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(requests[0]!.preview).toContain('héllo');
    expect(await fixtures.kindOf('src/a.txt')).toBe('file');
    expect(await process.call('read_directory', { path: 'src' })).toMatchObject({ ok: true });
    expect(requests.at(-1)).toMatchObject({ tool: 'read_directory', right: 'read', path: 'src', content_bytes: null });
  });

  it('refuses an ask grant without an approver, and hands the call signal to the approver', async () => {
    const config = { grants: [{ path: '.', tree: true, rights: ['read' as const], mode: 'ask' as const }] };
    const bare = await createTestbed({ config });
    expect(await bare.fail('read_directory', { path: '.' })).toMatchObject({ code: 'approval_required' });
    const seen: (AbortSignal | undefined)[] = [];
    const { provider } = createMemfsTestbed();
    const runtime = await createRuntime({
      provider,
      config,
      approver: (_request, context) => {
        seen.push(context.signal);
        return new Promise(() => {});
      },
    });
    const controller = new AbortController();
    const pending = runtime.spawn().call('read_directory', { path: '.' }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'approval_required', effect: 'none' } });
    expect(seen[0]?.aborted).toBe(true);
  });
});
