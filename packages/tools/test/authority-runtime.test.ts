import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApprovalRequest, Approver, CallResult, ConfigInput, FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';

const encoder = new TextEncoder();
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');
const at = (path: string) => path as WorkspacePath;

/** A provider wrapped so every method call is recorded before it runs. */
function counting(provider: FileSystemProviderV1) {
  const calls: string[] = [];
  const wrapped = new Proxy(provider, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return (value as (...parameters: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { provider: wrapped, calls };
}

/** A memfs workspace holding public/ and private/ with a file and a directory each (or nothing in private/). */
async function workspace(withTargets: boolean) {
  const provider = createMemfsProvider();
  await provider.writeFile(at('public/f.txt'), encoder.encode('public text'), { overwrite: true });
  await provider.makeDirectory(at('public/d'), { parents: true, existOk: true });
  await provider.writeFile(at('notes.txt'), encoder.encode('notes'), { overwrite: true });
  if (withTargets) {
    await provider.writeFile(at('private/f.txt'), encoder.encode('private text'), { overwrite: true });
    await provider.makeDirectory(at('private/d/inner'), { parents: true, existOk: true });
  }
  return counting(provider);
}

// Every runtime starts with an Object "doc" in the declared namespace "shared", restored from a
// checkpoint, so write_object_to_file has something to export whatever the policy lets it read.
const SHARED = [{ name: 'shared', rights: ['read', 'write'] as ('read' | 'write')[] }];
let checkpointDirectory: string;
let checkpoint: string;

beforeAll(async () => {
  checkpointDirectory = mkdtempSync(join(tmpdir(), 'libos-authority-'));
  checkpoint = join(checkpointDirectory, 'shared.sqlite');
  const runtime = await createRuntime({ provider: createMemfsProvider(), config: { namespaces: SHARED } });
  await runtime.provider.writeFile(at('doc.txt'), encoder.encode('object text'), { overwrite: true });
  const made = await runtime.spawn().call('create_object_from_file', { name: 'doc', path: 'doc.txt', namespace: 'shared' });
  expect(made.ok).toBe(true);
  await runtime.checkpoint(checkpoint, { namespaces: ['shared'] });
});

afterAll(() => rmSync(checkpointDirectory, { recursive: true, force: true }));

async function runtimeOn(withTargets: boolean, config: ConfigInput, approver?: Approver) {
  const { provider, calls } = await workspace(withTargets);
  const runtime = await createRuntime({
    provider,
    config: { namespaces: SHARED, ...config },
    restore: checkpoint,
    ...(approver === undefined ? {} : { approver }),
  });
  const process = runtime.spawn();
  calls.length = 0;
  return { runtime, process, calls };
}

// One call per tool on a target under private/; get_working_directory takes no path and asks nothing.
const TARGETED_CALLS: readonly [tool: string, args: Record<string, unknown>][] = [
  ['set_working_directory', { path: 'private/d' }],
  ['read_directory', { path: 'private/d' }],
  ['read_text_file', { path: 'private/f.txt' }],
  ['write_text_file', { path: 'private/f.txt', content: 'new text' }],
  ['write_text_file', { path: 'private/d', content: 'x', overwrite: false }],
  ['write_directory', { path: 'private/d', exist_ok: false }],
  ['delete_file', { path: 'private/f.txt' }],
  ['delete_file', { path: 'private/d' }],
  ['delete_directory', { path: 'private/d', recursive: true }],
  ['delete_directory', { path: 'private/f.txt' }],
  ['create_object_from_file', { name: 'copy', path: 'private/f.txt' }],
  ['write_object_to_file', { name: 'doc', namespace: 'shared', path: 'private/f.txt' }],
  ['write_object_to_file', { name: 'doc', namespace: 'shared', path: 'private/d', overwrite: false }],
];

const ALL_RIGHTS = ['read', 'write', 'delete'] as const;
const REFUSALS: readonly [name: string, config: ConfigInput, approver: Approver | undefined, code: string][] = [
  [
    'a deny grant',
    {
      grants: [
        { path: '.', tree: true, rights: [...ALL_RIGHTS] },
        { path: 'private', tree: true, rights: [...ALL_RIGHTS], mode: 'deny' },
      ],
    },
    undefined,
    'denied',
  ],
  ['no matching grant', { grants: [{ path: 'public', tree: true, rights: [...ALL_RIGHTS] }] }, undefined, 'denied'],
  ['a spent grant', { grants: [{ path: 'private', tree: true, rights: [...ALL_RIGHTS], uses: 1 }] }, undefined, 'denied'],
  ['an ask without approver', { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] }, undefined, 'approval_required'],
  [
    'an ask the approver rejects',
    { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] },
    async () => 'reject',
    'approval_rejected',
  ],
  [
    'an ask the approver cannot answer',
    { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] },
    async () => 'unavailable',
    'approval_required',
  ],
];

describe('authority through the runtime', () => {
  it('covers every tool that takes a path', async () => {
    const { runtime } = await runtimeOn(false, {});
    const covered = new Set(TARGETED_CALLS.map(([tool]) => tool));
    for (const tool of runtime.tools.map((summary) => summary.name)) {
      if (tool !== 'get_working_directory') expect(covered).toContain(tool);
    }
  });

  describe.each(REFUSALS)('refused by %s', (_name, config, approver, code) => {
    it.each(TARGETED_CALLS)('%s %j: same result whether the target exists, and no provider call', async (tool, args) => {
      const outcomes: CallResult[] = [];
      for (const withTargets of [true, false]) {
        const { runtime, process, calls } = await runtimeOn(withTargets, config, approver);
        if (!runtime.tools.some((summary) => summary.name === tool)) return;
        if (_name === 'a spent grant') {
          // Spend the one use on another path the same tree grant covers.
          const first = await process.call('write_directory', { path: 'private/spent' });
          expect(first.ok).toBe(true);
          calls.length = 0;
        }
        outcomes.push(await process.call(tool, args));
        expect(calls).toEqual([]);
      }
      expect(outcomes[0]).toEqual(outcomes[1]);
      expect(outcomes[0]).toMatchObject({ ok: false, error: { code, effect: 'none' } });
      const error = (outcomes[0] as { error: { message: string; details: Record<string, unknown> } }).error;
      expect(Object.keys(error.details).sort()).toEqual(['path', 'right']);
      expect(error.message).toContain(`"${String(error.details.path)}"`);
    });
  });

  it('lets nothing reach the provider while an approval is pending', async () => {
    let release!: (decision: 'approve' | 'reject') => void;
    let asked!: () => void;
    const askedPromise = new Promise<void>((resolve) => (asked = resolve));
    const approver: Approver = () => {
      asked();
      return new Promise((resolve) => (release = resolve));
    };
    const { process, calls } = await runtimeOn(
      true,
      { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] },
      approver,
    );
    const pending = process.call('write_text_file', { path: 'private/f.txt', content: 'approved text' });
    await askedPromise;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toEqual([]);
    release('approve');
    expect(await pending).toMatchObject({ ok: true, result: { path: 'private/f.txt', created: false } });
    expect(calls).toEqual(['writeFile']);
  });

  it('drops a pending approval when the call is aborted, without touching the provider', async () => {
    const controller = new AbortController();
    const approver: Approver = () => {
      setTimeout(() => controller.abort(), 5);
      return new Promise(() => {});
    };
    const { process, calls } = await runtimeOn(
      true,
      { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] },
      approver,
    );
    const outcome = await process.call('delete_file', { path: 'private/f.txt' }, { signal: controller.signal });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'approval_required', effect: 'none' } });
    expect(calls).toEqual([]);
  });

  it.each<[string, Record<string, unknown>]>([
    ['write_text_file', { path: 'notes.txt', content: 5 }],
    ['write_text_file', { path: 'notes.txt', content: 'x', encoding: 'no-such-codec' }],
    ['write_text_file', { path: 'notes.txt', content: 'x', extra: true }],
    ['write_text_file', { path: '../notes.txt', content: 'x' }],
    ['write_text_file', { path: '.git/notes.txt', content: 'x' }],
    ['write_text_file', { path: 'notes.txt\u0000', content: 'x' }],
    ['write_text_file', { path: 'notes.txt', content: 'x', encoding: 'ascii', nothing: 1 }],
    ['write_text_file', { path: 'notes.txt', content: 'é', encoding: 'ascii' }],
    ['read_text_file', { path: 'notes.txt' }],
  ])('%s %j neither reaches the provider nor spends a use', async (tool, args) => {
    const approvals: ApprovalRequest[] = [];
    const { process, calls } = await runtimeOn(
      true,
      { grants: [{ path: 'notes.txt', rights: ['write'], mode: 'ask', uses: 1 }] },
      async (request) => {
        approvals.push(request);
        return 'approve';
      },
    );
    const outcome = await process.call(tool, args);
    expect(outcome.ok).toBe(false);
    expect(calls).toEqual([]);
    expect(approvals).toEqual([]);
    expect(await process.call('write_text_file', { path: 'notes.txt', content: 'kept' })).toMatchObject({ ok: true });
    expect(calls).toEqual(['writeFile']);
  });
});

describe('uses through the runtime', () => {
  it('are spent once the provider is called, even when the call then fails', async () => {
    const { process, calls } = await runtimeOn(true, { grants: [{ path: 'notes.txt', rights: ['write'], uses: 1 }] });
    const failed = await process.call('write_text_file', { path: 'notes.txt', content: 'x', overwrite: false });
    expect(failed).toMatchObject({ ok: false, error: { code: 'already_exists' } });
    expect(calls).toEqual(['writeFile']);
    const after = await process.call('write_text_file', { path: 'notes.txt', content: 'x' });
    expect(after).toMatchObject({ ok: false, error: { code: 'denied', message: 'Writing "notes.txt" is not permitted.' } });
    expect(calls).toEqual(['writeFile']);
  });

  it('let exactly one of 20 parallel calls through with uses: 1, across processes', async () => {
    const { runtime, calls } = await runtimeOn(true, { grants: [{ path: 'notes.txt', rights: ['write'], uses: 1 }] });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        runtime.spawn().call('write_text_file', { path: 'notes.txt', content: `writer ${index}` }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.error.code === 'denied')).toHaveLength(19);
    expect(calls).toEqual(['writeFile']);
  });
});

describe('approvals through the runtime', () => {
  it('show the encoded bytes, ask again for changed content, and write only what was approved', async () => {
    const approvals: ApprovalRequest[] = [];
    const answers: ('approve' | 'reject')[] = ['approve', 'reject', 'approve'];
    const { process, calls } = await runtimeOn(true, { grants: [{ path: '.', tree: true, rights: [...ALL_RIGHTS], mode: 'ask' }] }, async (request) => {
      approvals.push(request);
      return answers.shift()!;
    });
    const args = { path: 'public/f.txt', content: 'héllo\n', encoding: 'utf-16' };
    expect(await process.call('write_text_file', args)).toMatchObject({ ok: true, result: { bytes_written: 14 } });
    const changed = { ...args, content: 'changed' };
    expect(await process.call('write_text_file', changed)).toMatchObject({ ok: false, error: { code: 'approval_rejected' } });
    expect(await process.call('write_text_file', args)).toMatchObject({ ok: true });
    expect(calls).toEqual(['writeFile', 'writeFile']);

    const utf16 = Uint8Array.of(0xff, 0xfe, ...[...'héllo\n'].flatMap((character) => [character.charCodeAt(0), 0]));
    expect(approvals[0]).toEqual({
      tool: 'write_text_file',
      right: 'write',
      path: 'public/f.txt',
      arguments_sha256: sha256(JSON.stringify(args)),
      content_bytes: 14,
      content_sha256: sha256(utf16),
      // UTF-16 bytes read leniently as UTF-8: the BOM becomes U+FFFD and every zero byte is escaped.
      preview: '\ufffd\ufffdh\\u0000\ufffd\\u0000l\\u0000l\\u0000o\\u0000\\n\\u0000',
    });
    expect(approvals[1]!.content_sha256).not.toBe(approvals[0]!.content_sha256);
    expect(approvals[2]).toEqual(approvals[0]);
  });

  it('ask about reads with null content fields', async () => {
    const approvals: ApprovalRequest[] = [];
    const { process } = await runtimeOn(true, { grants: [{ path: 'public', tree: true, rights: ['read'], mode: 'ask' }] }, async (request) => {
      approvals.push(request);
      return 'approve';
    });
    expect(await process.call('read_text_file', { path: 'public/f.txt' })).toMatchObject({ ok: true });
    expect(approvals).toEqual([
      {
        tool: 'read_text_file',
        right: 'read',
        path: 'public/f.txt',
        arguments_sha256: sha256(JSON.stringify({ path: 'public/f.txt' })),
        content_bytes: null,
        content_sha256: null,
        preview: null,
      },
    ]);
  });
});

describe('a policy through the runtime', () => {
  it('without grants allows everything in the workspace', async () => {
    const { process } = await runtimeOn(true, {});
    expect(await process.call('delete_directory', { path: 'private', recursive: true })).toMatchObject({ ok: true });
  });

  it('resolves relative paths before matching, so grants see canonical identities', async () => {
    const { runtime } = await runtimeOn(true, {
      grants: [
        { path: '.', tree: true, rights: ['read'] },
        { path: 'public/d', tree: true, rights: ['write'] },
      ],
    });
    const child = await runtime.spawn().spawn({ cwd: 'public/d' });
    expect(await child.call('write_text_file', { path: './x/../y.txt', content: 'y' })).toMatchObject({
      ok: true,
      result: { path: 'public/d/y.txt' },
    });
    expect(await child.call('write_text_file', { path: '../f.txt', content: 'y' })).toMatchObject({
      ok: false,
      error: { code: 'denied', message: 'Writing "public/f.txt" is not permitted.' },
    });
  });
});

describe('namespaces and labels through the runtime', () => {
  it('refuse another process namespace and an undeclared right before the provider is called', async () => {
    const { runtime, process, calls } = await runtimeOn(true, { namespaces: [{ name: 'inbox', rights: ['write'] }] });
    const other = runtime.spawn();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', path: 'public/f.txt', namespace: other.namespace }, 'namespace_not_found'],
      [{ name: 'x', path: 'public/f.txt', namespace: 'nowhere' }, 'namespace_not_found'],
    ];
    for (const [args, code] of cases) {
      expect(await process.call('create_object_from_file', args)).toMatchObject({ ok: false, error: { code } });
    }
    expect(await process.call('write_object_to_file', { name: 'x', namespace: 'inbox', path: 'out.txt' })).toMatchObject({
      ok: false,
      error: { code: 'denied', details: { right: 'read', namespace: 'inbox' } },
    });
    expect(calls).toEqual([]);
  });

  it('label Objects from their file and refuse egress above the target clearance without a provider call', async () => {
    const { process, calls } = await runtimeOn(true, {
      labels: [{ path: 'private', tree: true, label: 'secret' }],
      sinks: [{ path: 'vault', tree: true, max_label: 'secret' }],
    });
    expect(await process.call('create_object_from_file', { name: 'key', path: 'private/f.txt' })).toMatchObject({ ok: true });
    calls.length = 0;
    expect(await process.call('write_object_to_file', { name: 'key', path: 'public/copy.txt' })).toMatchObject({
      ok: false,
      error: { code: 'egress_denied', effect: 'none' },
    });
    expect(calls).toEqual([]);
    expect(await process.call('write_object_to_file', { name: 'key', path: 'vault/copy.txt' })).toMatchObject({ ok: true });
    expect(calls).toEqual(['writeFile']);
  });
});
