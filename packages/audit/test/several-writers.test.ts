import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LibosError } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { createFileAuditLog, verify } from '../src/index.js';
import { recordsOf, temporaryDirectory } from './support.js';

const child = fileURLToPath(new URL('./fixtures/audited-child.mjs', import.meta.url));

/** Starts a child writer (see the fixture); `reached` resolves once `ready` matches its output. */
function startChild(args: string[], ready: (output: string) => boolean) {
  const running = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  running.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => running.on('exit', (code, signal) => resolve(signal ?? code)));
  const reached = new Promise<string>((resolve, reject) => {
    running.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (ready(output)) resolve(output);
    });
    void exited.then((how) => reject(new Error(`child exited (${how}) before it was ready: ${output}${errors}`)));
  });
  return { running, reached, exited, output: () => output, errors: () => errors };
}

/** Every line of the file is whole JSON, seq runs 1, 2, 3, ..., and each named path appears once. */
function expectOneSequence(file: string) {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const records = recordsOf(file);
  expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
  const named = records.flatMap((record) => record.paths);
  expect(new Set(named).size).toBe(named.length);
  return new Set(named);
}

describe('several writers on one log', () => {
  it('two processes appending 2,000 calls each at once, with this one between them: no record lost or torn, one chain that verifies', async () => {
    const file = join(temporaryDirectory(), 'audit.log');
    const writers = ['agent', 'person'].map((tag) => startChild(['append', file, tag, '2000'], (output) => output.includes('done')));
    // This process writes too, while both children run.
    const log = await createFileAuditLog({ path: file });
    const runtime = await createRuntime({ provider: createMemfsProvider(), audit: log });
    const own = runtime.spawn();
    for (let call = 1; call <= 300; call += 1) {
      const result = await own.call('read_text_file', { path: `own-${call}.txt` });
      expect(result.ok || result.error.code !== 'provider_failure').toBe(true);
    }
    await runtime.close();
    await log.close();
    for (const writer of writers) await writer.reached;
    expect(await Promise.all(writers.map((writer) => writer.exited))).toEqual([0, 0]);
    const named = expectOneSequence(file);
    for (const tag of ['agent', 'person']) for (let call = 1; call <= 2000; call += 1) expect(named.has(`${tag}-${call}.txt`)).toBe(true);
    for (let call = 1; call <= 300; call += 1) expect(named.has(`own-${call}.txt`)).toBe(true);
    // The writers took turns (the lock is not held for a whole run): the tags alternate in the file.
    const tags = recordsOf(file).flatMap((record) => record.paths.map((path) => path.split('-')[0]));
    expect(tags.filter((tag, index) => index > 0 && tag !== tags[index - 1]).length).toBeGreaterThan(2);
    // 4,300 calls and a session start and end for each of the three writers.
    expect(verify(file)).toMatchObject({ ok: true, records: 4306, last_seq: 4306 });
  }, 240_000);

  it('a writer SIGKILLed mid-stream: the other goes on, every answered call of both has its record, the chain verifies', async () => {
    const file = join(temporaryDirectory(), 'audit.log');
    const killed = startChild(['calls', file], (output) => (output.match(/answered/g)?.length ?? 0) >= 300);
    const survivor = startChild(['append', file, 'survivor', '3000'], (output) => output.includes('done'));
    await killed.reached;
    killed.running.kill('SIGKILL');
    expect(await killed.exited).toBe('SIGKILL');
    await survivor.reached;
    expect(await survivor.exited).toBe(0);
    const named = expectOneSequence(file);
    const answered = [...killed.output().matchAll(/answered (\d+)\n/g)].map((match) => `f${match[1]}.txt`);
    expect(answered.filter((path) => !named.has(path))).toEqual([]);
    for (let call = 1; call <= 3000; call += 1) expect(named.has(`survivor-${call}.txt`)).toBe(true);
    expect(verify(file)).toMatchObject({ ok: true });
  }, 240_000);

  it('cuts the torn line a killed writer left between two of its writes, and chains on from the last whole record', async () => {
    const file = join(temporaryDirectory(), 'audit.log');
    const log = await createFileAuditLog({ path: file });
    const runtime = await createRuntime({ provider: createMemfsProvider(), audit: log });
    const agent = runtime.spawn();
    await agent.call('read_text_file', { path: 'before.txt' });
    // Another writer (the lock is free between writes) took the lock, wrote whole records, and was killed mid-line.
    const other = await createFileAuditLog({ path: file });
    await (await other.openSession({ provider: 'memfs' })).recordOperation({ operation: 'discard', paths: ['x.txt'], result: { ok: true } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const whole = statSync(file).size;
    appendFileSync(file, '{"arguments_sha256":null,"cli');
    await agent.call('read_text_file', { path: 'after.txt' });
    await runtime.close();
    await log.close();
    await other.close();
    expect(readFileSync(file, 'utf8')).not.toContain('"cli\n');
    expect(statSync(file).size).toBeGreaterThan(whole);
    expect(recordsOf(file).map((record) => record.tool)).toEqual([
      'session_start',
      'read_text_file',
      'session_start',
      'discard',
      'read_text_file',
      'session_end',
      'session_end',
    ]);
    expect(verify(file)).toMatchObject({ ok: true, records: 7 });
  });

  it('a process that holds the lock forever: a writer waits a bounded time, then fails writer_busy in one sentence, and nothing is recorded', async () => {
    const directory = temporaryDirectory();
    const file = join(directory, 'audit.log');
    // A writer opened before the stuck one arrived.
    const log = await createFileAuditLog({ path: file, lockWaitMs: 1000 });
    const runtime = await createRuntime({ provider: createMemfsProvider(), audit: log });
    const agent = runtime.spawn();
    expect((await agent.call('write_text_file', { path: 'a.txt', content: 'x' })).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stuck = startChild(['lock', file], (output) => output.includes('locked'));
    await stuck.reached;
    try {
      const before = readFileSync(file, 'utf8');
      const refused = createFileAuditLog({ path: file, lockWaitMs: 500 });
      await expect(refused).rejects.toSatisfy(
        (error) =>
          LibosError.is(error, 'provider_failure') &&
          error.details?.reason === 'writer_busy' &&
          error.effect === 'none' &&
          error.message ===
            `The audit log ${file} is held by another writer that has not let go of it for 0.5 s (an older libOS, or a stuck process): nothing was recorded.`,
      );
      // A call whose record cannot be written is not answered as a success: its effect is honest.
      const write = await agent.call('write_text_file', { path: 'b.txt', content: 'y' });
      expect(write).toMatchObject({ ok: false, error: { code: 'provider_failure', effect: 'unknown' } });
      const read = await agent.call('read_text_file', { path: 'a.txt' });
      expect(read).toMatchObject({ ok: false, error: { code: 'provider_failure', effect: 'none' } });
      expect(readFileSync(file, 'utf8')).toBe(before);
    } finally {
      stuck.running.kill('SIGKILL');
      await stuck.exited;
    }
    // The kernel frees a dead holder's lock: the next call is recorded, and the chain verifies.
    expect((await agent.call('read_text_file', { path: 'a.txt' })).ok).toBe(true);
    await runtime.close();
    await log.close();
    expect(recordsOf(file).map((record) => record.tool)).toEqual(['session_start', 'write_text_file', 'read_text_file', 'session_end']);
    expect(verify(file)).toMatchObject({ ok: true, records: 4 });
  }, 60_000);

  it('a keyed writer that finds lines after its own that do not continue the chain stops, and never signs over them', async () => {
    const file = join(temporaryDirectory(), 'audit.log');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const log = await createFileAuditLog({ path: file, signingKey: privateKey });
    const runtime = await createRuntime({ provider: createMemfsProvider(), audit: log });
    const agent = runtime.spawn();
    expect((await agent.call('read_text_file', { path: 'a.txt' })).ok).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Someone who is not a writer appends a record of their own, its seq right, its prev made up.
    const [last] = recordsOf(file).slice(-1);
    appendFileSync(file, `${JSON.stringify({ ...last, seq: last!.seq + 1, prev: 'f'.repeat(64), tool: 'forged' })}\n`);
    const checkpointsBefore = readFileSync(`${file}.checkpoints`, 'utf8');
    const after = await agent.call('read_text_file', { path: 'b.txt' });
    expect(after).toMatchObject({ ok: false, error: { code: 'provider_failure', effect: 'none' } });
    await runtime.close().catch(() => {});
    await log.close().catch(() => {});
    expect(readFileSync(`${file}.checkpoints`, 'utf8')).toBe(checkpointsBefore);
    expect(recordsOf(file).at(-1)?.tool).toBe('forged');
    expect(verify(file, { publicKey })).toMatchObject({ ok: false, reason: 'hash_mismatch' });
  });
});
