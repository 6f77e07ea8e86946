import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LibosError } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { auditOverlay, createFileAuditLog, verify, type AuditableOverlay } from '../src/index.js';
import { recordsOf, temporaryDirectory } from './support.js';

/** A person's overlay as an app holds one: what each operation was asked, and what it answers. */
function fakeOverlay() {
  const asked: string[] = [];
  const overlay = {
    changes: async () => {
      asked.push('changes');
      return { changes: [] };
    },
    apply: async (options?: { readonly paths?: readonly string[] }) => {
      asked.push('apply');
      return { apply_id: 'apply_1', applied: options?.paths ?? ['a.txt'], conflicts: [] };
    },
    undoApply: async (applyId: string) => {
      asked.push(`undo ${applyId}`);
      return { restored: ['a.txt'], conflicts: [] };
    },
    discard: async (_options?: unknown) => {
      asked.push('discard');
      return { discarded: ['b.txt'], conflicts: [] };
    },
    rewind: async (seq: number): Promise<{ rewound: number }> => {
      asked.push(`rewind ${seq}`);
      throw new LibosError('invalid_arguments', 'No call has that seq.', { effect: 'none' });
    },
  } satisfies AuditableOverlay & Record<string, unknown>;
  return { overlay, asked };
}

describe('auditOverlay', () => {
  it('records a fork, and an apply and a discard by hunk, as the same operations with their hunks among the hashed arguments', async () => {
    const { overlay, asked } = fakeOverlay();
    const forked: string[] = [];
    const withFork = { ...overlay, fork: async (to: string) => (forked.push(to), { state: to, changes: 2 }) };
    const file = join(temporaryDirectory(), 'audit.log');
    const audited = auditOverlay(withFork, { openLog: () => createFileAuditLog({ path: file }) });
    const shown = { set: 'v1' };
    await audited.apply({ paths: ['a.txt'], hunks: { 'a.txt': [1] }, shown } as never);
    await audited.apply({ paths: ['a.txt'], hunks: { 'a.txt': [2] }, shown } as never);
    await audited.discard({ paths: ['b.txt'], hunks: { 'b.txt': [1] }, shown } as never);
    expect(await audited.fork('/tmp/other.state')).toEqual({ state: '/tmp/other.state', changes: 2 });
    expect(forked).toEqual(['/tmp/other.state']);
    expect(asked).toEqual(['apply', 'apply', 'discard']);
    const operations = recordsOf(file).filter((record) => !String(record.tool).startsWith('session_'));
    expect(operations.map((record) => record.tool)).toEqual(['apply', 'apply', 'discard', 'fork']);
    // Different hunks are different arguments: the log tells the two applies apart.
    expect(operations[0]!.arguments_sha256).not.toBe(operations[1]!.arguments_sha256);
    expect(operations[2]).toMatchObject({ paths: ['b.txt'], result: { ok: true } });
    expect(operations[3]).toMatchObject({ paths: [], result: { ok: true } });
    expect(verify(file)).toMatchObject({ ok: true });
  });

  it('records an apply or a discard that met conflicts as content_conflict, never as plain ok', async () => {
    const { overlay } = fakeOverlay();
    const conflict = { path: 'c.txt', reason: 'changed_on_disk', expected_sha256: null, actual_sha256: null };
    const answers = [
      { apply_id: null, applied: [], conflicts: [conflict] },
      { apply_id: 'apply_2', applied: ['a.txt'], conflicts: [conflict] },
    ];
    const conflicted = { ...overlay, apply: async () => answers.shift()!, discard: async () => ({ discarded: [], conflicts: [conflict] }) };
    const file = join(temporaryDirectory(), 'audit.log');
    const audited = auditOverlay(conflicted, { openLog: () => createFileAuditLog({ path: file }) });
    await audited.apply();
    await audited.apply();
    await audited.discard();
    const operations = recordsOf(file).filter((record) => !String(record.tool).startsWith('session_'));
    expect(operations.map((record) => [record.tool, record.paths, record.result])).toEqual([
      ['apply', [], { ok: false, code: 'content_conflict', effect: 'none' }],
      // Some paths landed (the record names them), the others did not: not "nothing changed".
      ['apply', ['a.txt'], { ok: false, code: 'content_conflict', effect: 'unknown' }],
      ['discard', [], { ok: false, code: 'content_conflict', effect: 'none' }],
    ]);
    expect(verify(file)).toMatchObject({ ok: true });
  });

  it('leaves an overlay without fork without one', () => {
    const { overlay } = fakeOverlay();
    expect('fork' in auditOverlay(overlay, { openLog: async () => undefined })).toBe(false);
  });

  it('records each changing operation in a session of its own, with its paths, and passes reads through', async () => {
    const { overlay, asked } = fakeOverlay();
    const file = join(temporaryDirectory(), 'audit.log');
    const audited = auditOverlay(overlay, { openLog: () => createFileAuditLog({ path: file }), provider: 'overlay over local', root: '/srv/w' });
    expect(await audited.changes()).toEqual({ changes: [] });
    expect(await audited.apply({ paths: ['src/a.ts'] })).toEqual({ apply_id: 'apply_1', applied: ['src/a.ts'], conflicts: [] });
    expect(await audited.undoApply('apply_1')).toMatchObject({ restored: ['a.txt'] });
    expect(await audited.discard()).toMatchObject({ discarded: ['b.txt'] });
    await expect(audited.rewind(3)).rejects.toMatchObject({ code: 'invalid_arguments' });
    expect(asked).toEqual(['changes', 'apply', 'undo apply_1', 'discard', 'rewind 3']);
    const records = recordsOf(file);
    expect(records.map((record) => record.tool)).toEqual([
      ...['session_start', 'apply', 'session_end'],
      ...['session_start', 'undo_apply', 'session_end'],
      ...['session_start', 'discard', 'session_end'],
      ...['session_start', 'rewind', 'session_end'],
    ]);
    expect(records[1]).toMatchObject({ paths: ['src/a.ts'], result: { ok: true }, session: records[0]!.session });
    expect(records[7]).toMatchObject({ paths: ['b.txt'] });
    // A failure is recorded with its code and effect, then thrown to the app.
    expect(records[10]!.result).toEqual({ ok: false, code: 'invalid_arguments', effect: 'none' });
    expect(new Set(records.map((record) => record.session)).size).toBe(4);
    expect(verify(file)).toMatchObject({ ok: true });
  });

  it('runs nothing when the log refuses the session (a log inside the root): the refusal comes first', async () => {
    const { overlay, asked } = fakeOverlay();
    const root = temporaryDirectory();
    mkdirSync(join(root, 'logs'));
    const audited = auditOverlay(overlay, { openLog: () => createFileAuditLog({ path: join(root, 'logs', 'audit.log') }), root });
    await expect(audited.apply()).rejects.toMatchObject({ code: 'invalid_arguments' });
    await expect(audited.discard()).rejects.toMatchObject({ code: 'invalid_arguments' });
    expect(asked).toEqual([]);
  });

  it('runs nothing when the log cannot be opened (another writer holds it), and runs unrecorded when there is no log', async () => {
    const { overlay, asked } = fakeOverlay();
    const busy = new LibosError('invalid_arguments', 'The audit log is held by another writer.', { details: { reason: 'writer_busy' } });
    await expect(auditOverlay(overlay, { openLog: () => Promise.reject(busy) }).apply()).rejects.toBe(busy);
    expect(asked).toEqual([]);
    expect(await auditOverlay(overlay, { openLog: async () => undefined }).apply()).toMatchObject({ applied: ['a.txt'] });
    expect(asked).toEqual(['apply']);
  });
});
