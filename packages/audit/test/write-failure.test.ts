import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { CallResult } from '@libos/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFileAuditLog, verify } from '../src/index.js';
import { auditedRuntime, callRecordsOf, temporaryDirectory } from './support.js';

// The writer's file-system seam: a test can make the next writes of the log fail after writing a
// part of their bytes, as a full disk does (a short write, then ENOSPC).
const fault = vi.hoisted(() => ({ failing: false, fd: -1, truncateFails: false }));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const writeSync = ((fd: number, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
    if (fault.failing && fd === fault.fd) {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      if (bytes.length > 1) real.writeSync(fd, bytes.subarray(0, Math.floor(bytes.length / 2)));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }
    return (real.writeSync as (...args: unknown[]) => number)(fd, data, ...rest);
  }) as typeof real.writeSync;
  const ftruncateSync = ((fd: number, length?: number) => {
    if (fault.truncateFails && fd === fault.fd) throw Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' });
    return real.ftruncateSync(fd, length);
  }) as typeof real.ftruncateSync;
  return { ...real, writeSync, ftruncateSync, default: { ...real, writeSync, ftruncateSync } };
});

const mounts: string[] = [];
afterEach(() => {
  fault.failing = false;
  fault.truncateFails = false;
  for (const mount of mounts.splice(0)) execFileSync('umount', ['-l', mount]);
});

function logDescriptor(path: string): number {
  for (const entry of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${entry}`) === path) return Number(entry);
    } catch {
      // A descriptor closed while listing.
    }
  }
  return -1;
}

/** Each answer, and whether the log holds a record naming its path. */
function consistent(answers: [string, CallResult][], log: string) {
  const recorded = new Set(callRecordsOf(log).flatMap((record) => record.paths));
  return answers.map(([path, answer]) => ({ path, answeredOk: answer.ok, recorded: recorded.has(path) }));
}

describe('a record that cannot be written', () => {
  it('fails its call provider_failure, cuts the torn line and records again once the disk has room', async () => {
    const path = join(temporaryDirectory(), 'audit.log');
    const errors: unknown[] = [];
    const log = await createFileAuditLog({ path, onError: (error) => errors.push(error) });
    const runtime = await auditedRuntime(log, { files: { 'secret.txt': 'x' } });
    const agent = runtime.spawn();
    expect((await agent.call('write_text_file', { path: 'before.txt', content: 'a' })).ok).toBe(true);

    // The log's own descriptor: every write to it now tears and fails.
    fault.fd = logDescriptor(path);
    expect(fault.fd).toBeGreaterThan(-1);
    fault.failing = true;
    const written = await agent.call('write_text_file', { path: 'backdoor.txt', content: 'b' });
    const deleted = await agent.call('delete_file', { path: 'secret.txt' });
    const read = await agent.call('read_text_file', { path: 'before.txt' });
    // Never answered as done: what the call did stands, and its effect says so.
    expect([written, deleted, read].map((answer) => (answer.ok ? 'ok' : `${answer.error.code}/${answer.error.effect}`))).toEqual([
      'provider_failure/unknown',
      'provider_failure/unknown',
      'provider_failure/none',
    ]);
    expect(errors).toHaveLength(1);

    fault.failing = false;
    expect((await agent.call('write_text_file', { path: 'after.txt', content: 'c' })).ok).toBe(true);
    await runtime.close();
    await log.close();
    expect(verify(path)).toMatchObject({ ok: true });
    expect(callRecordsOf(path).map((record) => record.paths[0])).toEqual(['before.txt', 'after.txt']);
  });

  it('stops the log, loudly, when a torn line can be neither cut nor read past: every later call fails', async () => {
    const path = join(temporaryDirectory(), 'audit.log');
    const errors: unknown[] = [];
    const log = await createFileAuditLog({ path, onError: (error) => errors.push(error) });
    const runtime = await auditedRuntime(log);
    const agent = runtime.spawn();
    fault.fd = logDescriptor(path);
    fault.failing = true;
    fault.truncateFails = true;
    expect(await agent.call('write_text_file', { path: 'a.txt', content: 'a' })).toMatchObject({ ok: false, error: { code: 'provider_failure' } });
    fault.failing = false;
    fault.truncateFails = false;
    // Room again, but nothing is chained after a line the writer could not cut: no call is answered as done.
    expect(await agent.call('write_text_file', { path: 'b.txt', content: 'b' })).toMatchObject({
      ok: false,
      error: { code: 'provider_failure', effect: 'unknown' },
    });
    expect(await agent.call('list_directory', { path: '.' })).toMatchObject({ ok: false, error: { code: 'provider_failure', effect: 'none' } });
    expect(errors.map((error) => String(error))).toEqual([expect.stringContaining('ENOSPC'), expect.stringContaining('stopped recording')]);
    await runtime.close().catch(() => undefined);
    await log.close().catch(() => undefined);
  });

  it('on a real full disk (a 64 KiB tmpfs): no unrecorded success, and the log recovers', async (context) => {
    const disk = temporaryDirectory();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', disk], { stdio: 'ignore' });
    } catch {
      // Mounting needs root (CAP_SYS_ADMIN); the injected failure above covers the same path.
      context.skip();
    }
    mounts.push(disk);
    const path = join(disk, 'audit.log');
    const errors: unknown[] = [];
    const log = await createFileAuditLog({ path, onError: (error) => errors.push(error) });
    const runtime = await auditedRuntime(log);
    const agent = runtime.spawn();
    const answers: [string, CallResult][] = [];
    const call = async (name: string) => {
      const target = `${name}-${'n'.repeat(120)}.txt`;
      answers.push([target, await agent.call('write_text_file', { path: target, content: name })]);
    };
    for (let index = 0; index < 5; index += 1) await call(`early${index}`);

    // The agent fills the disk the log lies on.
    const filler = join(disk, 'filler');
    const fd = fs.openSync(filler, 'w');
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(4096, 1));
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
    for (let index = 0; index < 40; index += 1) await call(`full${index}`);
    const failed = answers.filter(([, answer]) => !answer.ok);
    expect(failed.length).toBeGreaterThan(0);
    for (const [, answer] of failed)
      expect(answer.ok ? undefined : [answer.error.code, answer.error.effect]).toEqual(['provider_failure', 'unknown']);
    expect(errors.length).toBeGreaterThan(0);

    // Space is freed: the calls after it are recorded, and the chain verifies.
    fs.rmSync(filler);
    for (let index = 0; index < 20; index += 1) await call(`later${index}`);
    await runtime.close();
    await log.close();
    expect(verify(path)).toMatchObject({ ok: true });
    // Every answered success has its record, and no failed call has one.
    for (const row of consistent(answers, path)) expect(row.recorded).toBe(row.answeredOk);
    expect(answers.slice(-20).every(([, answer]) => answer.ok)).toBe(true);
  });
});
