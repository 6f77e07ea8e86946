import { describe, expect, it } from 'vitest';
import { createTestbed } from './support/harness.js';

// A counted class after a star: RE2 accepts it, but on text of random a and b its program keeps a
// thousand states alive at every character, so one 1 MiB line (holding the required `!`, so no
// prefilter skips it) costs tens of seconds: the attack of a frozen process.
const HOSTILE = '[ab]*a[ab]{1000}[0-9]!';
const LONG_LINE = randomLetters(1024 * 1024 - 2) + '!\n';

function randomLetters(length: number): string {
  let seed = 1;
  const letters: string[] = [];
  for (let index = 0; index < length; index++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    letters.push(seed & 0x10000 ? 'a' : 'b');
  }
  return letters.join('');
}

async function hostileBed() {
  const bed = await createTestbed();
  for (let index = 0; index < 8; index++) await bed.fixtures.writeFile(`big/f${index}.txt`, LONG_LINE);
  await bed.fixtures.writeFile('small.txt', 'hello\n');
  return bed;
}

describe('search_files cannot stall the process', () => {
  it("answers another session's call while a hostile pattern is being matched, and the caller's signal stops the hostile one", async () => {
    const bed = await hostileBed();
    const controller = new AbortController();
    let hostileDone = false;
    const hostile = bed.process
      .call(
        'search_files',
        { path: 'big', query: HOSTILE, regex: true, max_bytes_per_file: 1_048_576, deadline_ms: 60_000 },
        { signal: controller.signal },
      )
      .finally(() => (hostileDone = true));
    // Generous set-up: the hostile search is well into its first file by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(hostileDone).toBe(false);
    const other = bed.runtime.spawn();
    const answered = await other.call('read_text_file', { path: 'small.txt' });
    expect(answered).toMatchObject({ ok: true, result: { content: 'hello\n' } });
    // A timer of the same process fires too, while the hostile search still runs.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(hostileDone).toBe(false);
    controller.abort();
    expect(await hostile).toMatchObject({ ok: false, error: { code: 'provider_failure', effect: 'none', details: { reason: 'cancelled' } } });
  }, 60_000);

  it('ends a hostile search at its deadline with what it found, saying it stopped there', async () => {
    const bed = await hostileBed();
    const outcome = await bed.ok('search_files', { path: 'big', query: HOSTILE, regex: true, max_bytes_per_file: 1_048_576, deadline_ms: 300 });
    expect(outcome).toMatchObject({ matches: [], count: 0, truncated: true, stopped: 'deadline' });
    // The next search (a fresh worker, the old one was terminated) works as usual.
    expect(await bed.ok('search_files', { path: '.', query: 'hel+o', regex: true })).toMatchObject({ count: 1, stopped: null, truncated: false });
  }, 60_000);

  it('refuses an invalid pattern with invalid_arguments before reading anything, however often it is tried', async () => {
    const bed = await hostileBed();
    for (let round = 0; round < 5; round++) {
      expect(await bed.fail('search_files', { path: 'nowhere', query: '(?<=x)y', regex: true })).toMatchObject({
        code: 'invalid_arguments',
        effect: 'none',
        details: { issues: [{ path: 'query', code: 'invalid_pattern' }] },
      });
    }
  });
});
