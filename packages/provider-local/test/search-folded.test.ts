import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { WorkspacePath } from '@libos/core';
import { createRuntime } from '@libos/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { searchThreadStats, setSearchThreads } from '../src/index.js';
import { createLocalProviderWithHooks } from '../src/testing.js';
import { createLocalTestbed, trackTestbeds } from './local-testbed.js';
import { walkOnly } from './search-support.js';

const track = trackTestbeds();
const DEFAULT_THREADS = searchThreadStats().maxThreads;
afterEach(() => setSearchThreads(DEFAULT_THREADS));

// Texts where a byte check that folds wrongly would drop a match: KELVIN SIGN (U+212A) and LONG S
// (U+017F) fold onto ASCII `k` and `s`; `İ` lowers to `i` and a combining dot; mixed case everywhere.
const FILES: Record<string, string> = {
  'a/kelvin.txt': 'the \u212Aey is here\n',
  'a/longs.txt': 'a \u017Fecret note\n',
  'a/dotted.txt': '\u0130stanbul calling\n',
  'a/mixed.txt': 'ThE KeY Is HeRe, SeCrEt NoTe, iSTANBUL CALLING\n',
  'b/plain.txt': 'nothing to see\n',
  'b/upper.txt': 'THE KEY IS HERE\n',
  'b/latin1.bin': 'caf\xe9 \xc0 KEY',
  'c/none.txt': 'unrelated words only\n',
};

const QUERIES = [
  { query: 'the key', regex: false },
  { query: 'KEY IS', regex: false },
  { query: 'secret', regex: false },
  { query: 'SECRET NOTE', regex: false },
  { query: 'istanbul', regex: false },
  { query: '\u0130STANBUL', regex: false },
  { query: '\u212Aey', regex: false },
  { query: '\u017Fecret', regex: false },
  { query: 'caf\u00c9', regex: false },
  { query: 'k[e]y\\s+IS', regex: true },
  { query: 'the \\w+ is HERE', regex: true },
  { query: 'stanbul.calling', regex: true },
];

describe('case-insensitive search through the search threads', () => {
  it('answers what the walk answers (KELVIN SIGN, LONG S, İ, mixed case), and marks files without a folded needle non-candidates', async () => {
    const { sandbox, provider } = track(createLocalTestbed());
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(sandbox.at(`t/${path}`)), { recursive: true });
      writeFileSync(sandbox.at(`t/${path}`), Buffer.from(text, path.endsWith('.bin') ? 'latin1' : 'utf8'));
    }
    const calling = createLocalProviderWithHooks({ root: sandbox.root }, { afterResolveStep: () => undefined });
    const threaded = (await createRuntime({ provider })).spawn();
    const here = (await createRuntime({ provider: calling })).spawn();
    const walked = (await createRuntime({ provider: walkOnly(provider) })).spawn();
    await setSearchThreads(2);
    for (const asked of QUERIES) {
      const call = { path: 't', case_sensitive: false, ...asked };
      const expected = await walked.call('search_files', call);
      expect(await threaded.call('search_files', call), asked.query).toEqual(expected);
      expect(await here.call('search_files', call), asked.query).toEqual(expected);
    }
    expect(searchThreadStats().threads).toBeGreaterThan(0);
    // The narrowing itself, on both paths: only files holding `secret` in any ASCII case are candidates.
    const query = {
      needles: [],
      foldedNeedles: [new TextEncoder().encode('secret')],
      alwaysNames: [],
      maxBytes: 1024,
      maxEntries: 100,
      maxCarriedBytes: 1e6,
    };
    for (const searched of [provider, calling]) {
      const answer = await searched.searchTree!('t' as WorkspacePath, query);
      const candidates = answer.entries.filter((entry) => entry.candidate).map((entry) => entry.path);
      expect(candidates.sort()).toEqual(['t/a/mixed.txt']);
    }
  }, 60_000);
});
