import type { ApprovalDecision, FileSystemProviderV1 } from '@libos/core';
import { createObjectMemory } from '@libos/object-memory';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { checkedCall, createTestbed } from './support/harness.js';

const IMPORT = 'create_object_from_file';
const EXPORT = 'write_object_to_file';

describe('argument errors of both tools, before anything is read', () => {
  const cases: [string, string, Record<string, unknown>, string][] = [
    [IMPORT, 'unknown field', { name: 'a', path: 'f.txt', extra: 1 }, 'invalid_arguments'],
    [IMPORT, 'missing name', { path: 'f.txt' }, 'invalid_arguments'],
    [IMPORT, 'null namespace', { name: 'a', path: 'f.txt', namespace: null }, 'invalid_arguments'],
    [IMPORT, 'max_bytes 0', { name: 'a', path: 'f.txt', max_bytes: 0 }, 'invalid_arguments'],
    [IMPORT, 'max_bytes over the limit', { name: 'a', path: 'f.txt', max_bytes: 16_777_217 }, 'invalid_arguments'],
    [IMPORT, 'allow_truncated as 1', { name: 'a', path: 'f.txt', allow_truncated: 1 }, 'invalid_arguments'],
    [IMPORT, 'object_type as a number', { name: 'a', path: 'f.txt', object_type: 5 }, 'invalid_arguments'],
    [IMPORT, 'an unknown encoding', { name: 'a', path: 'missing.txt', encoding: 'ebcdic' }, 'unsupported_encoding'],
    [IMPORT, 'an empty name', { name: '', path: 'missing.txt' }, 'invalid_name'],
    [IMPORT, 'a blank name', { name: '   ', path: 'missing.txt' }, 'invalid_name'],
    [IMPORT, 'the name .', { name: '.', path: 'missing.txt' }, 'invalid_name'],
    [IMPORT, 'the name ..', { name: ' .. ', path: 'missing.txt' }, 'invalid_name'],
    [IMPORT, 'a name with /', { name: 'a/b', path: 'missing.txt' }, 'invalid_name'],
    [IMPORT, 'a name with \\', { name: 'a\\b', path: 'missing.txt' }, 'invalid_name'],
    [IMPORT, 'a name with a lone surrogate, which no checkpoint could keep', { name: 'a\ud800', path: 'missing.txt' }, 'invalid_name'],
    [IMPORT, 'an empty namespace', { name: 'a', path: 'missing.txt', namespace: '' }, 'invalid_namespace'],
    [IMPORT, 'a namespace with spaces around', { name: 'a', path: 'missing.txt', namespace: ' shared' }, 'invalid_namespace'],
    [IMPORT, 'a namespace with an empty segment', { name: 'a', path: 'missing.txt', namespace: 'a//b' }, 'invalid_namespace'],
    [IMPORT, 'a namespace with ..', { name: 'a', path: 'missing.txt', namespace: 'a/..' }, 'invalid_namespace'],
    [IMPORT, 'an unknown object_type', { name: 'a', path: 'missing.txt', object_type: 'file' }, 'invalid_object_type'],
    [IMPORT, 'an absolute path', { name: 'a', path: '/etc/passwd' }, 'invalid_path'],
    [IMPORT, 'a path above the root', { name: 'a', path: '../x' }, 'outside_workspace'],
    [IMPORT, 'a .git path', { name: 'a', path: '.GIT/config' }, 'protected_path'],
    [EXPORT, 'unknown field', { name: 'a', path: 'o.txt', max_bytes: 3 }, 'invalid_arguments'],
    [EXPORT, 'overwrite as a string', { name: 'a', path: 'o.txt', overwrite: 'yes' }, 'invalid_arguments'],
    [EXPORT, 'an unknown encoding', { name: 'a', path: 'o.txt', encoding: 'utf-7' }, 'unsupported_encoding'],
    [EXPORT, 'an empty name', { name: ' ', path: 'o.txt' }, 'invalid_name'],
    [EXPORT, 'a name with /', { name: 'x/y', path: 'o.txt' }, 'invalid_name'],
    [EXPORT, 'a name with a lone surrogate', { name: '\udc00b', path: 'o.txt' }, 'invalid_name'],
    [EXPORT, 'a bad namespace', { name: 'a', path: 'o.txt', namespace: './x' }, 'invalid_namespace'],
    [EXPORT, 'an absolute path', { name: 'a', path: '//x' }, 'invalid_path'],
    [EXPORT, 'a path above the root', { name: 'a', path: 'a/../../x' }, 'outside_workspace'],
    [EXPORT, 'a .git path', { name: 'a', path: 'sub/.git/hooks/x' }, 'protected_path'],
  ];

  it.each(cases)('%s with %s: %s', async (tool, _, args, code) => {
    const bed = await createTestbed();
    expect(await bed.fail(tool, args)).toMatchObject({ code, effect: 'none' });
  });

  it('arguments_too_large comes before any other check', async () => {
    const bed = await createTestbed({ config: { bounds: { arguments_max_bytes: 64 } } });
    const args = { name: '', path: 'x'.repeat(100) };
    expect(await bed.fail(IMPORT, args)).toMatchObject({ code: 'arguments_too_large' });
    expect(await bed.fail(EXPORT, args)).toMatchObject({ code: 'arguments_too_large' });
  });
});

describe('state errors of create_object_from_file', () => {
  it('reports what it finds at the source, and stores nothing', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('dir');
    await bed.fixtures.writeFile('real.txt', 'real');
    await bed.fixtures.symlink('link.txt', 'real.txt');
    await bed.fixtures.writeFile('linked.txt', 'two names');
    await bed.fixtures.hardLink('linked.txt', 'second.txt');
    await bed.fixtures.writeFile('bad.txt', new Uint8Array([0x61, 0xff, 0x62]));
    await bed.fixtures.writeFile('file.txt', 'a file');
    for (const [path, code] of [
      ['missing.txt', 'not_found'],
      ['dir', 'not_a_file'],
      ['link.txt', 'symlink_refused'],
      ['linked.txt', 'hard_link_refused'],
      ['bad.txt', 'decode_failed'],
      ['file.txt/below', 'not_a_directory'],
    ] as const) {
      expect(await bed.fail(IMPORT, { name: 'n', path }), path).toMatchObject({ code, effect: 'none' });
    }
    expect(await bed.runtime.objects.list(bed.process.namespace)).toEqual([]);
  });

  it('fails with provider_failure once the runtime is closed', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'a');
    await bed.runtime.close();
    expect(await bed.fail(IMPORT, { name: 'a', path: 'a.txt' })).toMatchObject({ code: 'provider_failure' });
  });
});

describe('state errors of write_object_to_file', () => {
  const directory = mkdtempSync(join(tmpdir(), 'libos-object-errors-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('object_not_found: resolved by name only, never by oid', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'a');
    const created = await bed.ok(IMPORT, { name: 'a', path: 'a.txt' });
    expect(await bed.fail(EXPORT, { name: 'b', path: 'o.txt' })).toMatchObject({ code: 'object_not_found', effect: 'none' });
    expect(await bed.fail(EXPORT, { name: created['oid'], path: 'o.txt' })).toMatchObject({ code: 'object_not_found' });
    expect(await bed.fixtures.kindOf('o.txt')).toBe('missing');
  });

  it('unsupported_payload for a payload that is neither a string nor has a string content', async () => {
    // Objects with other payloads come from elsewhere (here: a checkpoint written by another memory).
    const memory = await createObjectMemory({ namespaces: ['shared'] });
    await memory.create({ namespace: 'shared', name: 'numbers', type: 'observation', payload: { values: [1, 2] }, createdBy: 'pid_x' });
    await memory.create({ namespace: 'shared', name: 'nested', type: 'observation', payload: { data: { content: 'deep' } }, createdBy: 'pid_x' });
    await memory.create({ namespace: 'shared', name: 'number content', type: 'observation', payload: { content: 7 }, createdBy: 'pid_x' });
    await memory.create({ namespace: 'shared', name: 'list', type: 'observation', payload: ['content'], createdBy: 'pid_x' });
    await memory.create({ namespace: 'shared', name: 'text', type: 'message', payload: 'just a string', createdBy: 'pid_x' });
    const file = join(directory, 'payloads.sqlite');
    await memory.checkpoint(file);
    const { provider, fixtures } = createMemfsTestbed();
    const runtime = await createRuntime({ provider, restore: file, config: { namespaces: [{ name: 'shared', rights: ['read'] }] } });
    const process = runtime.spawn();
    for (const name of ['numbers', 'nested', 'number content', 'list']) {
      expect(await checkedCall(runtime, process, EXPORT, { name, namespace: 'shared', path: 'o.txt' }), name).toMatchObject({
        ok: false,
        error: { code: 'unsupported_payload', effect: 'none' },
      });
    }
    expect(await fixtures.kindOf('o.txt')).toBe('missing');
    expect(await checkedCall(runtime, process, EXPORT, { name: 'text', namespace: 'shared', path: 'o.txt' })).toMatchObject({ ok: true });
    expect(Buffer.from((await fixtures.readFile('o.txt'))!).toString()).toBe('just a string');
  });

  it('encode_failed before anything is touched', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'naïve 😀');
    await bed.ok(IMPORT, { name: 'a', path: 'a.txt' });
    expect(await bed.fail(EXPORT, { name: 'a', path: 'o.txt', encoding: 'ascii' })).toMatchObject({ code: 'encode_failed', effect: 'none' });
    expect(await bed.fail(EXPORT, { name: 'a', path: 'o.txt', encoding: 'latin-1' })).toMatchObject({ code: 'encode_failed' });
    expect(await bed.fixtures.kindOf('o.txt')).toBe('missing');
  });

  it('reports what it finds at the target', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'a');
    await bed.fixtures.makeDirectory('dir');
    await bed.fixtures.writeFile('real.txt', 'real');
    await bed.fixtures.symlink('link.txt', 'real.txt');
    await bed.fixtures.writeFile('linked.txt', 'x');
    await bed.fixtures.hardLink('linked.txt', 'second.txt');
    await bed.ok(IMPORT, { name: 'a', path: 'a.txt' });
    for (const [path, code] of [
      ['dir', 'not_a_file'],
      ['link.txt', 'symlink_refused'],
      ['linked.txt', 'hard_link_refused'],
      ['a.txt/below', 'not_a_directory'],
    ] as const) {
      expect(await bed.fail(EXPORT, { name: 'a', path }), path).toMatchObject({ code });
    }
    expect(await bed.fail(EXPORT, { name: 'a', path: 'real.txt', overwrite: false })).toMatchObject({ code: 'already_exists' });
    expect(Buffer.from((await bed.fixtures.readFile('real.txt'))!).toString()).toBe('real');
  });
});

describe('approval', () => {
  async function bedWith(decision: ApprovalDecision | null) {
    return createTestbed({
      config: { grants: [{ path: '.', tree: true, rights: ['read', 'write'], mode: 'ask' }] },
      ...(decision === null ? {} : { approver: async () => decision }),
    });
  }

  it('asks before reading the source or writing the target', async () => {
    const seen: string[] = [];
    const bed = await createTestbed({
      config: { grants: [{ path: '.', tree: true, rights: ['read', 'write'], mode: 'ask' }] },
      approver: async (request) => {
        seen.push(`${request.tool} ${request.right} ${request.path} ${String(request.content_bytes)}`);
        return 'approve';
      },
    });
    await bed.fixtures.writeFile('a.txt', 'four');
    await bed.ok(IMPORT, { name: 'a', path: 'a.txt' });
    await bed.ok(EXPORT, { name: 'a', path: 'b.txt' });
    expect(seen).toEqual(['create_object_from_file read a.txt null', 'write_object_to_file write b.txt 4']);
  });

  it.each([
    [null, 'approval_required'],
    ['unavailable', 'approval_required'],
    ['reject', 'approval_rejected'],
  ] as const)('approver %s: %s, whether or not the file exists', async (decision, code) => {
    const bed = await bedWith(decision);
    for (const path of ['a.txt', 'missing.txt']) {
      expect(await bed.fail(IMPORT, { name: 'a', path })).toMatchObject({ code, effect: 'none' });
    }
    expect(await bed.runtime.objects.list(bed.process.namespace)).toEqual([]);
  });

  it('an export refused by the approver writes nothing', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    await fixtures.writeFile('a.txt', 'a');
    let answer: ApprovalDecision = 'approve';
    const runtime = await createRuntime({
      provider: provider as FileSystemProviderV1,
      config: { grants: [{ path: '.', tree: true, rights: ['read', 'write'], mode: 'ask' }] },
      approver: async () => answer,
    });
    const process = runtime.spawn();
    expect(await checkedCall(runtime, process, IMPORT, { name: 'a', path: 'a.txt' })).toMatchObject({ ok: true });
    answer = 'reject';
    expect(await checkedCall(runtime, process, EXPORT, { name: 'a', path: 'b.txt' })).toMatchObject({
      ok: false,
      error: { code: 'approval_rejected' },
    });
    expect(await fixtures.kindOf('b.txt')).toBe('missing');
  });
});
