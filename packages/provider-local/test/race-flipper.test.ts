import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '@libos/tools';
import type { RuntimeProcess } from '@libos/tools';
import { OUTSIDE_CONTENT, createLocalTestbed, fingerprintTree } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

// A child process flips `zone/x` between a real directory and a link to the outside directory in
// a tight loop while the tools work through that path. A race lasts at least RACE_MS and goes on
// until the calls have met both states (some succeeded, some were refused at the link): on a loaded
// machine the flipper may get little CPU, so the race waits for the interleaving it needs instead of
// judging after a fixed time. RACE_LIMIT_MS only ends a race whose flipper never runs at all.
const RACE_MS = 1500;
const RACE_LIMIT_MS = 90_000;
const flipper = fileURLToPath(new URL('./fixtures/flip-directory.mjs', import.meta.url));

interface Tally {
  calls: number;
  ok: number;
  refused: number;
  codes: Record<string, number>;
}

async function race(
  borrowWorkingDirectory: boolean,
  prepare: (sandbox: Sandbox) => void,
  work: (process: RuntimeProcess, round: number, call: (tool: string, args: Record<string, unknown>) => Promise<unknown>) => Promise<void>,
): Promise<Tally> {
  const { sandbox, provider } = createLocalTestbed(undefined, { borrowWorkingDirectory });
  const runtime = await createRuntime({ provider });
  try {
    const zone = sandbox.at('zone');
    mkdirSync(join(zone, 'x.real', 'c'), { recursive: true });
    writeFileSync(join(zone, 'x.real', 'secret.txt'), 'INSIDE');
    writeFileSync(join(zone, 'x.real', 'c', 'f.txt'), 'INSIDE');
    const outsideDirectory = join(sandbox.outside, 'directory');
    mkdirSync(join(outsideDirectory, 'c'), { recursive: true });
    writeFileSync(join(outsideDirectory, 'c', 'f.txt'), OUTSIDE_CONTENT);
    mkdirSync(join(outsideDirectory, 'victim', 'deep'), { recursive: true });
    writeFileSync(join(outsideDirectory, 'victim', 'deep', 'v.txt'), OUTSIDE_CONTENT);
    prepare(sandbox);
    const before = fingerprintTree(sandbox.outside);

    const child = spawn(process.execPath, [flipper, zone, 'x', outsideDirectory], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => ((output += chunk.toString()), output.includes('ready') && resolve())),
    );
    let running = true;
    void exited.then(() => (running = false));
    const started = Date.now();

    const tally: Tally = { calls: 0, ok: 0, refused: 0, codes: {} };
    const agent = runtime.spawn();
    const call = async (tool: string, args: Record<string, unknown>): Promise<unknown> => {
      const outcome = await agent.call(tool, args);
      const json = JSON.stringify(outcome);
      expect(json.includes(OUTSIDE_CONTENT), `read outside content: ${tool} ${json}`).toBe(false);
      expect(json.includes(sandbox.base), `leaked a host path: ${json}`).toBe(false);
      tally.calls++;
      if (outcome.ok) tally.ok++;
      else {
        tally.codes[outcome.error.code] = (tally.codes[outcome.error.code] ?? 0) + 1;
        if (outcome.error.code === 'symlink_refused') tally.refused++;
      }
      return outcome;
    };
    for (let round = 0; running; round++) {
      await work(agent, round, call);
      const elapsed = Date.now() - started;
      const metBoth = tally.ok > 0 && tally.refused > 0;
      if ((metBoth && elapsed >= RACE_MS) || elapsed >= RACE_LIMIT_MS) break;
      // Let the child's output and exit be noticed even though the provider's calls are mostly synchronous.
      await new Promise((resolve) => setImmediate(resolve));
    }
    child.stdin.end();
    await exited;
    expect(output).toMatch(/flips [1-9]/);
    expect(fingerprintTree(sandbox.outside), 'the outside tree changed during the race').toBe(before);
    return tally;
  } finally {
    await runtime.close();
    sandbox.remove();
  }
}

function expectBothOutcomes(tally: Tally): void {
  // Both states were met: the race really interleaved with the calls.
  expect(tally.ok, JSON.stringify(tally)).toBeGreaterThan(0);
  expect(tally.refused, JSON.stringify(tally)).toBeGreaterThan(0);
}

// Both ways of naming entries: /proc/self/fd paths, and names inside a borrowed working directory.
for (const borrowWorkingDirectory of [false, true]) {
  describe(`a directory flipping with a link to the outside, under load${borrowWorkingDirectory ? ', borrowing the working directory' : ''}`, {
    timeout: RACE_LIMIT_MS + 30_000,
  }, () => {
    it('reads and lists never see outside content', async () => {
      const tally = await race(
        borrowWorkingDirectory,
        () => undefined,
        async (_process, _round, call) => {
          await call('read_text_file', { path: 'zone/x/secret.txt' });
          await call('read_text_file', { path: 'zone/x/c/f.txt' });
          await call('read_directory', { path: 'zone/x' });
          await call('create_object_from_file', { name: `o${_round}`, path: 'zone/x/c/f.txt' });
          await call('set_working_directory', { path: 'zone/x/c' });
          await call('set_working_directory', { path: '.' });
        },
      );
      expectBothOutcomes(tally);
    });

    it('writes and directory creations never land outside', async () => {
      const tally = await race(
        borrowWorkingDirectory,
        () => undefined,
        async (_process, round, call) => {
          await call('write_text_file', { path: `zone/x/new-${round % 5}.txt`, content: 'written' });
          await call('write_text_file', { path: `zone/x/c/f.txt`, content: 'INSIDE' });
          await call('write_text_file', { path: `zone/x/made-${round % 5}/n.txt`, content: 'x', overwrite: false });
          await call('write_directory', { path: `zone/x/dir-${round % 5}/sub` });
          await call('delete_file', { path: `zone/x/new-${round % 5}.txt`, missing_ok: true });
        },
      );
      expectBothOutcomes(tally);
    });

    it('edits never read or change outside bytes', async () => {
      const tally = await race(
        borrowWorkingDirectory,
        () => undefined,
        async (_process, _round, call) => {
          await call('write_text_file', { path: 'zone/x/c/f.txt', content: 'INSIDE' });
          // An edit through the link would show OUTSIDE in its diff and change the outside file.
          await call('edit_text_file', { path: 'zone/x/c/f.txt', edits: [{ old_text: 'SIDE', new_text: 'SIDE edited' }] });
          await call('edit_text_file', { path: 'zone/x/secret.txt', edits: [{ old_text: 'SIDE', new_text: 'SIDE' }] });
        },
      );
      expectBothOutcomes(tally);
    });

    it('searches never read outside bytes through the flipping directory', async () => {
      const tally = await race(
        borrowWorkingDirectory,
        () => undefined,
        async (_process, _round, call) => {
          // OUTSIDE lives only behind the link; a result holding it would be caught by the race harness.
          await call('search_files', { path: 'zone', query: 'SIDE' });
          await call('search_files', { path: 'zone/x', query: 'SIDE', regex: true });
        },
      );
      // The walk skips a swapped directory silently, so failures come only from the root itself being
      // the link, missing or changing for the instant of the swap.
      for (const code of Object.keys(tally.codes)) expect(['symlink_refused', 'not_found', 'changed_during_operation']).toContain(code);
      expect(tally.ok, JSON.stringify(tally)).toBeGreaterThan(0);
      expect(tally.refused, JSON.stringify(tally)).toBeGreaterThan(0);
    });

    it('moves never take or put a file outside', async () => {
      const tally = await race(
        borrowWorkingDirectory,
        () => undefined,
        async (_process, round, call) => {
          await call('write_text_file', { path: 'zone/x/c/f.txt', content: 'INSIDE' });
          await call('move_file', { from: 'zone/x/c/f.txt', to: `zone/x/c/moved-${round % 3}.txt`, overwrite: true });
          await call('move_file', { from: `zone/x/c/moved-${round % 3}.txt`, to: 'zone/x/c/f.txt', overwrite: true });
          await call('move_file', { from: 'zone/x/secret.txt', to: 'zone/kept.txt' });
          await call('move_file', { from: 'zone/kept.txt', to: 'zone/x/secret.txt' });
        },
      );
      expectBothOutcomes(tally);
    });

    it('appends, copies and line reads never read or write outside', async () => {
      const tally = await race(
        borrowWorkingDirectory,
        () => undefined,
        async (_process, round, call) => {
          await call('append_text_file', { path: 'zone/x/c/f.txt', content: 'more\n' });
          await call('append_text_file', { path: `zone/x/c/new-${round % 3}.txt`, content: 'made\n', create: true });
          await call('copy_file', { from: 'zone/x/c/f.txt', to: `zone/x/c/copy-${round % 3}.txt`, overwrite: true });
          await call('copy_file', { from: 'zone/x/secret.txt', to: 'zone/copied.txt', overwrite: true });
          await call('read_text_file', { path: 'zone/x/c/f.txt', tail_lines: 2 });
          await call('read_text_file', { path: 'zone/x/c/f.txt', start_line: 2 });
        },
      );
      expectBothOutcomes(tally);
    });

    it('recursive deletes never delete outside', async () => {
      const tally = await race(
        borrowWorkingDirectory,
        () => undefined,
        async (_process, _round, call) => {
          await call('write_text_file', { path: 'zone/x/victim/deep/v.txt', content: 'inside victim' });
          await call('delete_directory', { path: 'zone/x/victim', recursive: true, missing_ok: true });
          await call('write_text_file', { path: 'zone/x/victim/deep/v.txt', content: 'inside victim' });
          await call('delete_directory', { path: 'zone/x', recursive: true, missing_ok: true });
        },
      );
      expectBothOutcomes(tally);
    });
  });
}
