import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../src/audit-record.js';
import { argumentsDigester } from '../src/canonical-hash.js';
import { canonicalJson } from '../src/index.js';
import { LineEncoder } from '../src/line-encoder.js';

const KEY = 'ab'.repeat(32);
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function entry(path: string): AuditEntry {
  return {
    time: '2026-12-08T02:00:00.000Z',
    session: 'ses_0123456789abcdef',
    process: 'pid_0123456789abcdef',
    client: { name: 'c', version: '1' },
    tool: 'read_text_file',
    arguments_sha256: null,
    paths: [path],
    decision: { outcome: 'allowed', rule: null },
    result: { ok: true },
    effects: [],
    duration_ms: 0.125,
  };
}

describe('records encoded into a kept buffer, digests from a kept block', () => {
  it('gives every line of batch after batch the canonical text and the chain, whatever the size and the characters', () => {
    const encoder = new LineEncoder();
    let seq = 0;
    let last = '0'.repeat(64);
    // A batch past the kept 64 KiB (it grows), one past the 1 MiB it never keeps, then small ones
    // written into the same buffer as the larger ones before them (no stale byte may follow).
    for (const [count, name] of [
      [400, 'é/日本/🙂-'],
      [3000, 'x'.repeat(300)],
      [1, 'a'],
      [7, '\u0000"\\\ud800'],
      [2, 'b'],
    ] as const) {
      const entries = Array.from({ length: count }, (_, index) => entry(`${name}${index}`));
      const encoded = encoder.encode(entries, seq, last);
      const lines = encoded.bytes.subarray(0, encoded.length).toString('utf8').split('\n');
      expect(lines.pop()).toBe('');
      expect(lines).toHaveLength(count);
      lines.forEach((line, index) => {
        expect(line).toBe(canonicalJson({ ...entries[index], seq: seq + 1, prev: last }, { loneSurrogates: 'escape' }));
        seq += 1;
        last = sha(Buffer.from(line, 'utf8'));
      });
      expect({ seq: encoded.seq, last: encoded.last }).toEqual({ seq, last });
    }
  });

  it("keys the arguments' HMAC the same from its kept block, call after call, long or short, any characters", () => {
    const digest = argumentsDigester(KEY);
    const values = [
      { path: 'x'.repeat(5000) },
      { path: 'a' },
      // Around the block's bound: 4,096 bytes of text at three bytes per unit.
      { path: '日'.repeat(1360) },
      { path: '日'.repeat(1370) },
      { path: '🙂'.repeat(700), content: '\u0000"' },
      'short',
      [1, null, true, { b: 1, a: 2 }],
    ];
    for (const value of values) expect(digest(value)).toBe(createHmac('sha256', KEY).update(canonicalJson(value)).digest('hex'));
    expect(digest({ big: 1n })).toBeNull();
  });
});
