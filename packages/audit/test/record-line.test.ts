import { describe, expect, it } from 'vitest';
import type { Grant } from '@libos/core';
import type { AuditEntry } from '../src/audit-record.js';
import { canonicalJson, canonicalString } from '../src/canonical-json.js';
import { isoTime } from '../src/iso-time.js';
import { recordLine } from '../src/record-line.js';

// The record line is written field by field for speed; the general canonicalizer is the reference.
const reference = (entry: AuditEntry, seq: number, prev: string) => canonicalJson({ ...entry, seq, prev }, { loneSurrogates: 'escape' });

// A small deterministic generator (mulberry32), so a failure replays.
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

// What a hostile name may hold: quotes, backslashes, controls, separators, lone and paired surrogates.
const PIECES = [
  'a',
  'Z',
  '/',
  '.',
  ' ',
  '"',
  '\\',
  '\n',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  'é',
  '€',
  '\ud83d\ude00',
  '\ud800',
  '\udfff',
  '{"k":1}',
];

function hostile(next: () => number, length = Math.floor(next() * 12)): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}

const HASH = 'ab'.repeat(32);
const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

function entryFrom(next: () => number): AuditEntry {
  const maybe = <T>(value: T): T | null => (next() < 0.3 ? null : value);
  const grant = {
    path: hostile(next) as Grant['path'],
    tree: next() < 0.5,
    rights: (['read', 'write', 'delete'] as const).slice(0, 1 + Math.floor(next() * 3)),
    mode: pick(next, ['allow', 'ask', 'deny'] as const),
    ...(next() < 0.5 ? { uses: Math.floor(next() * 1000) + 1 } : {}),
  };
  const asked = next() < 0.4;
  return {
    time: isoTime(Math.floor(next() * 4e12)),
    session: hostile(next),
    process: maybe(`pid_${hostile(next)}`),
    client: next() < 0.5 ? null : { name: hostile(next), version: hostile(next) },
    tool: maybe(hostile(next)),
    arguments_sha256: maybe(HASH),
    paths: Array.from({ length: Math.floor(next() * 4) }, () => hostile(next)),
    decision:
      next() < 0.3
        ? null
        : {
            outcome: pick(next, ['allowed', 'denied', 'asked'] as const),
            rule: next() < 0.3 ? null : grant,
            ...(asked ? { approval: { answer: pick(next, ['approved', 'rejected', 'unanswered'] as const), shown_sha256: maybe(HASH) } } : {}),
          },
    result:
      next() < 0.5
        ? { ok: true }
        : { ok: false, code: pick(next, ['denied', 'not_found', 'provider_failure'] as const), effect: pick(next, ['none', 'unknown'] as const) },
    effects: Array.from({ length: Math.floor(next() * 3) }, () => ({
      path: hostile(next),
      before_sha256: pick(next, [null, 'unknown', HASH]),
      after_sha256: pick(next, [null, HASH]),
      size_bytes: next() < 0.3 ? null : Math.floor(next() * 1e9),
    })),
    duration_ms: Math.round(next() * 1e9) / 1000,
  };
}

describe('recordLine', () => {
  it('writes the same text as the general canonicalizer, for every shape a record takes', () => {
    const next = random(20261201);
    // Locally 20,000 random records; CI runs fewer (the shapes repeat long before that).
    const rounds = process.env.LIBOS_STRESS === '1' ? 20_000 : 2000; // all of them under pnpm test:stress
    for (let round = 0; round < rounds; round += 1) {
      const entry = entryFrom(next);
      const seq = 1 + Math.floor(next() * 1e12);
      const line = recordLine(entry, seq, HASH);
      if (line !== reference(entry, seq, HASH)) expect({ round, line }).toEqual({ round, line: reference(entry, seq, HASH) });
      expect(JSON.parse(line)).toEqual(JSON.parse(reference(entry, seq, HASH)));
    }
  });

  it('writes a rule that is not shaped like a grant whole, as the general canonicalizer does', () => {
    const entry = entryFrom(random(7));
    const odd = {
      ...entry,
      decision: { outcome: 'allowed' as const, rule: { path: 'a', tree: false, rights: ['read'], mode: 'allow', note: 'x' } as never },
    };
    expect(recordLine(odd, 1, HASH)).toBe(reference(odd, 1, HASH));
    expect(recordLine(odd, 1, HASH)).toContain('"note":"x"');
    const numbered = { ...entry, decision: { outcome: 'allowed' as const, rule: { path: 'a', tree: 'yes', rights: [1], mode: 'allow' } as never } };
    expect(recordLine(numbered, 1, HASH)).toBe(reference(numbered, 1, HASH));
  });

  it('writes only the keys an effect defines, and never loses a record to a count that is not a number', () => {
    const entry = entryFrom(random(8));
    const effect = { path: 'a.txt', before_sha256: null, after_sha256: HASH, size_bytes: Number.NaN, content: 'secret' };
    const line = recordLine({ ...entry, effects: [effect] }, 1, HASH);
    expect(line).not.toContain('secret');
    expect(JSON.parse(line).effects).toEqual([{ path: 'a.txt', before_sha256: null, after_sha256: HASH, size_bytes: null }]);
  });
});

describe('canonicalString', () => {
  it('quotes as JSON.stringify does, and refuses a lone surrogate only when strict', () => {
    const next = random(99);
    for (let round = 0; round < 5000; round += 1) {
      const text = round % 50 === 0 ? hostile(next, 300) : hostile(next);
      expect(canonicalString(text, false)).toBe(JSON.stringify(text));
      if (text.isWellFormed()) expect(canonicalString(text)).toBe(JSON.stringify(text));
      else expect(() => canonicalString(text)).toThrow(TypeError);
    }
  });
});

describe('isoTime', () => {
  it('formats as Date#toISOString, across seconds, years and the epoch', () => {
    const next = random(5);
    const times = [0, -0, 1, 999, 1000, -1, -999, -1000, -1001, 253402300799999, 253402300800000, -62198755200000, 8.64e15, -8.64e15];
    for (let round = 0; round < 20_000; round += 1) times.push(Math.floor((next() - 0.3) * 4e14));
    for (let round = 0; round < 2000; round += 1) times.push(1764633600000 + round * 7);
    for (const time of times) expect(isoTime(time)).toBe(new Date(time).toISOString());
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
