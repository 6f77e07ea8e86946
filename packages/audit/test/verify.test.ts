import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { canonicalJson, createFileAuditLog, signedBytes, verify } from '../src/index.js';
import { temporaryDirectory } from './support.js';
import { verify as checkSignature } from 'node:crypto';

const keys = () => generateKeyPairSync('ed25519');

/** A closed log of `calls` calls (plus its session records), checkpointed every `every` records. */
async function writtenLog(calls: number, options: { every?: number; signingKey?: ReturnType<typeof keys>['privateKey'] } = {}) {
  const path = join(temporaryDirectory(), 'audit.log');
  const log = await createFileAuditLog({
    path,
    checkpointEvery: options.every ?? 1000,
    ...(options.signingKey === undefined ? {} : { signingKey: options.signingKey }),
  });
  const runtime = await createRuntime({ provider: createMemfsProvider(), audit: log });
  const process = runtime.spawn();
  for (let index = 0; index < calls; index += 1) await process.call('read_text_file', { path: `f${index}.txt` });
  await runtime.close();
  await log.close();
  return path;
}

const linesOf = (path: string) => readFileSync(path, 'utf8').split('\n').slice(0, -1);
const writeLines = (path: string, lines: string[]) => writeFileSync(path, lines.map((line) => `${line}\n`).join(''));

describe('checkpoints', () => {
  it('are written every N records and at close, each naming a record by its SHA-256, signed with Ed25519', async () => {
    const { privateKey, publicKey } = keys();
    const path = await writtenLog(10, { every: 4, signingKey: privateKey });
    const checkpoints = linesOf(`${path}.checkpoints`).map((line) => JSON.parse(line));
    expect(checkpoints.map((checkpoint) => checkpoint.seq)).toEqual([4, 8, 12]);
    for (const checkpoint of checkpoints) {
      expect(Object.keys(checkpoint)).toEqual(['record_sha256', 'seq', 'signature', 'time']);
      expect(
        checkSignature(null, signedBytes(checkpoint.seq, checkpoint.record_sha256), publicKey, Buffer.from(checkpoint.signature, 'base64')),
      ).toBe(true);
    }
    expect(verify(path, { publicKey })).toEqual({ ok: true, records: 12, checkpoints: 3, last_seq: 12 });
  });

  it('are written every interval while records arrive', async () => {
    const path = join(temporaryDirectory(), 'audit.log');
    const log = await createFileAuditLog({ path, checkpointIntervalMs: 50 });
    const session = await log.openSession({ provider: 'test' });
    await expect.poll(() => linesOf(`${path}.checkpoints`).length, { timeout: 10_000 }).toBe(1);
    await session.end();
    await expect.poll(() => linesOf(`${path}.checkpoints`).length, { timeout: 10_000 }).toBe(2);
    await log.close();
    expect(linesOf(`${path}.checkpoints`)).toHaveLength(2);
  });
});

describe('verify finds every kind of tampering', () => {
  it('accepts an untouched log', async () => {
    expect(verify(await writtenLog(5))).toEqual({ ok: true, records: 7, checkpoints: 1, last_seq: 7 });
  });

  it('hash_mismatch: a flipped byte in a record', async () => {
    const path = await writtenLog(8);
    const lines = linesOf(path);
    lines[4] = lines[4]!.replace('"f3.txt"', '"f3.txu"');
    writeLines(path, lines);
    expect(verify(path)).toEqual({ ok: false, first_bad_seq: 5, reason: 'hash_mismatch' });
  });

  it('hash_mismatch: a flipped byte in the last record, caught by the closing checkpoint', async () => {
    const path = await writtenLog(3);
    const bytes = readFileSync(path);
    const at = bytes.lastIndexOf('"session_end"');
    bytes[at + 1] = 'S'.charCodeAt(0);
    writeFileSync(path, bytes);
    expect(verify(path)).toEqual({ ok: false, first_bad_seq: 5, reason: 'hash_mismatch' });
  });

  it('gap: a dropped record', async () => {
    const path = await writtenLog(8);
    const lines = linesOf(path);
    lines.splice(3, 1);
    writeLines(path, lines);
    expect(verify(path)).toEqual({ ok: false, first_bad_seq: 4, reason: 'gap' });
  });

  it('reordered: two records swapped', async () => {
    const path = await writtenLog(8);
    const lines = linesOf(path);
    [lines[3], lines[4]] = [lines[4]!, lines[3]!];
    writeLines(path, lines);
    expect(verify(path)).toEqual({ ok: false, first_bad_seq: 4, reason: 'reordered' });
  });

  it('duplicate: a record written twice', async () => {
    const path = await writtenLog(8);
    const lines = linesOf(path);
    lines.splice(6, 0, lines[2]!);
    writeLines(path, lines);
    expect(verify(path)).toEqual({ ok: false, first_bad_seq: 3, reason: 'duplicate' });
  });

  it('truncated: records cut before the last checkpoint, at a line end or mid-line', async () => {
    const path = await writtenLog(8);
    const lines = linesOf(path);
    writeLines(path, lines.slice(0, 6));
    expect(verify(path)).toEqual({ ok: false, first_bad_seq: 7, reason: 'truncated' });
    writeFileSync(path, `${lines.slice(0, 6).join('\n')}\n${lines[6]!.slice(0, 40)}`);
    expect(verify(path)).toEqual({ ok: false, first_bad_seq: 7, reason: 'truncated' });
  });

  it('bad_signature: checkpoints checked against another key, or unsigned', async () => {
    const path = await writtenLog(3, { signingKey: keys().privateKey });
    expect(verify(path, { publicKey: keys().publicKey })).toEqual({ ok: false, first_bad_seq: 5, reason: 'bad_signature' });
    const unsigned = await writtenLog(3);
    expect(verify(unsigned, { publicKey: keys().publicKey })).toEqual({ ok: false, first_bad_seq: 5, reason: 'bad_signature' });
  });

  it('malformed: a line that is not a record', async () => {
    const path = await writtenLog(8);
    const lines = linesOf(path);
    lines[3] = '{"seq": "four"';
    writeLines(path, lines);
    expect(verify(path)).toEqual({ ok: false, first_bad_seq: 4, reason: 'malformed' });
    lines[3] = 'not json at all';
    writeLines(path, lines);
    expect(verify(path)).toEqual({ ok: false, first_bad_seq: 4, reason: 'malformed' });
  });

  it('malformed: a torn last line that no checkpoint covers', async () => {
    const path = await writtenLog(2);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"arguments_sha256":null,"cl`);
    expect(verify(path)).toEqual({ ok: false, first_bad_seq: 5, reason: 'malformed' });
  });

  it('is not misled by names that spell record keys', async () => {
    const path = join(temporaryDirectory(), 'audit.log');
    const log = await createFileAuditLog({ path });
    const runtime = await createRuntime({ provider: createMemfsProvider(), audit: log });
    const process = runtime.spawn();
    for (const name of [`a,"prev":"${'0'.repeat(64)}",`, 'b,"seq":1,"x', '{"seq":2}', 'c\n{"seq":3}']) {
      await process.call('write_text_file', { path: name, content: 'x' });
    }
    await runtime.close();
    await log.close();
    expect(verify(path)).toEqual({ ok: true, records: 6, checkpoints: 1, last_seq: 6 });
  });
});

describe('a writer of the directory without the key (verify --public-key)', () => {
  // What someone who can write the log's directory, but not read the key, can do: rewrite the chain.
  const rechain = (lines: string[]) => {
    let prev = '0'.repeat(64);
    return lines.map((line, index) => {
      const record = { ...JSON.parse(line), seq: index + 1, prev };
      const text = canonicalJson(record);
      prev = createHash('sha256').update(text).digest('hex');
      return text;
    });
  };

  it('truncated: a record dropped, the chain rewritten and the checkpoints deleted or emptied', async () => {
    const { privateKey, publicKey } = keys();
    const path = await writtenLog(6, { signingKey: privateKey });
    expect(verify(path, { publicKey })).toMatchObject({ ok: true });
    const lines = linesOf(path);
    lines.splice(3, 1);
    writeLines(path, rechain(lines));
    writeFileSync(`${path}.checkpoints`, '');
    expect(verify(path, { publicKey })).toEqual({ ok: false, first_bad_seq: 1, reason: 'truncated' });
    rmSync(`${path}.checkpoints`);
    expect(verify(path, { publicKey })).toEqual({ ok: false, first_bad_seq: 1, reason: 'truncated' });

    // The next keyed writer refuses to continue it, and signs nothing.
    await expect(createFileAuditLog({ path, signingKey: privateKey })).rejects.toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringContaining('does not verify with this key (truncated at seq 1)'),
    });
    expect(existsSync(`${path}.checkpoints`) ? readFileSync(`${path}.checkpoints`, 'utf8') : '').toBe('');
    expect(verify(path, { publicKey })).toEqual({ ok: false, first_bad_seq: 1, reason: 'truncated' });
  });

  it('truncated: the checkpoints replaced by an older copy, or a forged session appended after the last one', async () => {
    const { privateKey, publicKey } = keys();
    const path = join(temporaryDirectory(), 'audit.log');
    const session = async () => {
      const log = await createFileAuditLog({ path, signingKey: privateKey });
      const runtime = await createRuntime({ provider: createMemfsProvider(), audit: log });
      await runtime.spawn().call('read_text_file', { path: 'f.txt' });
      await runtime.close();
      await log.close();
    };
    await session();
    const older = readFileSync(`${path}.checkpoints`, 'utf8');
    await session();
    const newest = readFileSync(`${path}.checkpoints`, 'utf8');
    expect(verify(path, { publicKey })).toEqual({ ok: true, records: 6, checkpoints: 2, last_seq: 6 });
    writeFileSync(`${path}.checkpoints`, older);
    expect(verify(path, { publicKey })).toEqual({ ok: false, first_bad_seq: 4, reason: 'truncated' });

    // The newest checkpoints, and a forged session chained after the last record they sign.
    writeFileSync(`${path}.checkpoints`, newest);
    const lines = linesOf(path);
    writeLines(path, rechain([...lines, ...lines.slice(3)]));
    expect(verify(path, { publicKey })).toEqual({ ok: false, first_bad_seq: 7, reason: 'truncated' });
  });

  it('reordered: checkpoints out of order', async () => {
    const { privateKey, publicKey } = keys();
    const path = await writtenLog(10, { every: 4, signingKey: privateKey });
    const checkpoints = linesOf(`${path}.checkpoints`);
    [checkpoints[0], checkpoints[1]] = [checkpoints[1]!, checkpoints[0]!];
    writeLines(`${path}.checkpoints`, checkpoints);
    expect(verify(path, { publicKey })).toEqual({ ok: false, first_bad_seq: 4, reason: 'reordered' });
  });
});

describe('a checkpoint due at its seq', () => {
  it('is on disk before any later call is answered', async () => {
    const path = join(temporaryDirectory(), 'audit.log');
    const log = await createFileAuditLog({ path, checkpointEvery: 5 });
    const runtime = await createRuntime({ provider: createMemfsProvider(), audit: log });
    const agent = runtime.spawn();
    const lagging: number[] = [];
    for (let index = 0; index < 40; index += 1) {
      await agent.call('read_text_file', { path: `f${index}.txt` });
      const records = linesOf(path).length;
      const checkpointed = Math.max(0, ...linesOf(`${path}.checkpoints`).map((line) => JSON.parse(line).seq as number));
      if (checkpointed < records - (records % 5)) lagging.push(records);
    }
    await runtime.close();
    await log.close();
    expect(lagging).toEqual([]);
  });
});
