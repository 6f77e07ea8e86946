import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { createFileAuditLog, verify } from '../src/index.js';
import { auditedRuntime, callRecordsOf, openLog, recordsOf, temporaryDirectory } from './support.js';

const child = fileURLToPath(new URL('./fixtures/audited-child.mjs', import.meta.url));

/** Starts the child; resolves with it once `ready` matches its output. */
function startChild(mode: 'calls', file: string, ready: (output: string) => boolean) {
  const running = spawn(process.execPath, [child, mode, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => running.on('exit', (code, signal) => resolve(signal ?? code)));
  const reached = new Promise<string>((resolve, reject) => {
    running.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (ready(output)) resolve(output);
    });
    void exited.then(() => reject(new Error(`child exited early: ${output}`)));
  });
  return { running, reached, exited, output: () => output };
}

describe('durable records, a chain that survives', () => {
  it('leaves a record for every answered call when the server is SIGKILLed mid-stream', async () => {
    const file = join(temporaryDirectory(), 'audit.log');
    const calls = startChild('calls', file, (output) => (output.match(/answered/g)?.length ?? 0) >= 300);
    await calls.reached;
    calls.running.kill('SIGKILL');
    expect(await calls.exited).toBe('SIGKILL');
    const answered = [...calls.output().matchAll(/answered (\d+)\n/g)].map((match) => Number(match[1]));
    expect(answered.length).toBeGreaterThanOrEqual(300);
    const recorded = new Set(recordsOf(file).flatMap((record) => record.paths));
    const missing = answered.filter((call) => !recorded.has(`f${call}.txt`));
    expect(missing).toEqual([]);
    expect(verify(file)).toMatchObject({ ok: true });
    // The next writer continues the chain of the killed one.
    const log = await createFileAuditLog({ path: file });
    await log.close();
    expect(verify(file)).toMatchObject({ ok: true, last_seq: recordsOf(file).length });
  }, 60_000);

  it('gives 500 concurrent calls exactly 500 records with contiguous seq and a valid chain', async () => {
    const log = await openLog();
    const runtime = await auditedRuntime(log, { files: { 'a.txt': 'x'.repeat(100) } });
    const processes = Array.from({ length: 10 }, () => runtime.spawn());
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, index) =>
        processes[index % 10]!.call(
          index % 5 === 0 ? 'write_text_file' : 'read_text_file',
          index % 5 === 0 ? { path: `w${index}.txt`, content: 'y' } : { path: 'a.txt' },
        ),
      ),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    await runtime.close();
    await log.close();
    const records = recordsOf(log.path);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    expect(callRecordsOf(log.path)).toHaveLength(500);
    expect(verify(log.path)).toEqual({ ok: true, records: 502, checkpoints: 1, last_seq: 502 });
  });

  it('continues the chain of an existing log, cutting a torn last line', async () => {
    const log = await openLog();
    const first = await createRuntime({ provider: createMemfsProvider(), audit: log });
    await first.spawn().call('get_working_directory', {});
    await first.close();
    await log.close();
    // A writer killed in the middle of a line (its call was never answered).
    appendFileSync(log.path, '{"arguments_sha256":null,"cli');
    const resumed = await createFileAuditLog({ path: log.path });
    const second = await createRuntime({ provider: createMemfsProvider(), audit: resumed });
    await second.spawn().call('get_working_directory', {});
    await second.close();
    await resumed.close();
    expect(recordsOf(log.path).map((record) => record.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(verify(log.path)).toEqual({ ok: true, records: 6, checkpoints: 2, last_seq: 6 });
  });

  it('refuses to continue a file whose last line is not a record, and a log inside the workspace root', async () => {
    const directory = temporaryDirectory();
    const file = join(directory, 'not-a-log');
    writeFileSync(file, 'hello\n');
    await expect(createFileAuditLog({ path: file })).rejects.toThrow(/not an audit log/);
    expect(readFileSync(file, 'utf8')).toBe('hello\n');
    const log = await createFileAuditLog({ path: join(directory, 'inside', '..', 'audit.log') });
    await expect(log.openSession({ provider: 'local', root: directory })).rejects.toThrow(/inside the workspace root/);
    await log.close();
  });

  it('refuses to continue a log cut before its last checkpoint', async () => {
    const log = await openLog();
    const runtime = await createRuntime({ provider: createMemfsProvider(), audit: log });
    await runtime.spawn().call('get_working_directory', {});
    await runtime.close();
    await log.close();
    const lines = readFileSync(log.path, 'utf8').split('\n');
    writeFileSync(log.path, `${lines[0]}\n`);
    await expect(createFileAuditLog({ path: log.path })).rejects.toThrow(/fewer records than its last checkpoint/);
    expect(verify(log.path)).toEqual({ ok: false, first_bad_seq: 2, reason: 'truncated' });
  });

  it('writes the record of a call still running when the runtime closes before the session end', async () => {
    const log = await openLog();
    let approve: () => void = () => {};
    let asked = false;
    const runtime = await auditedRuntime(log, {
      config: { grants: [{ path: '.', tree: true, rights: ['write'], mode: 'ask' }] },
      approver: () =>
        new Promise((resolve) => {
          asked = true;
          approve = () => resolve('approve');
        }),
    });
    const pending = runtime.spawn().call('write_text_file', { path: 'late.txt', content: 'x' });
    await expect.poll(() => asked, { timeout: 10_000 }).toBe(true);
    const closed = runtime.close();
    approve();
    await Promise.allSettled([pending, closed]);
    // The provider closed under it, so the call fails; what matters is that its record is there, in order.
    await log.close();
    expect(recordsOf(log.path).map((record) => record.tool)).toEqual(['session_start', 'write_text_file', 'session_end']);
  });
});
