import { createHash } from 'node:crypto';
import { appendFileSync, linkSync, mkdirSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { createRuntime } from '@libos/tools';
import { expectFailure } from './expect-error.js';
import { STAGING, createLocalTestbed, stagedEntries, stagedTemporaries, trackTestbeds } from './local-testbed.js';

// A write's temporary lives in the staging directory at the root; no tool may see, read, write,
// import or delete it, whatever name it is guessed by.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const track = trackTestbeds();

describe('the staging directory and every temporary in it are unreachable', () => {
  it('a leftover temporary, guessed by name, is never read, written, listed, imported or deleted', async () => {
    const { sandbox, provider } = track(createLocalTestbed());
    await provider.writeFile(p('f.txt'), bytes('first'), { overwrite: true });
    writeFileSync(sandbox.at(`${STAGING}/0123456789abcdef.0.cafe`), 'LEFTOVER');
    mkdirSync(sandbox.at(`sub/${STAGING}`), { recursive: true });
    writeFileSync(sandbox.at(`sub/${STAGING}/t`), 'NESTED');
    for (const guess of [STAGING, `${STAGING}/0123456789abcdef.0.cafe`, `sub/${STAGING}`, `sub/${STAGING}/t`]) {
      await expectFailure(provider.readFile(p(guess), { maxBytes: 100 }), 'not_found');
      await expectFailure(provider.listDirectory(p(guess), { limit: 10 }), 'not_found');
      await expectFailure(provider.deleteFile(p(guess), { missingOk: false }), 'not_found');
      await expectFailure(provider.deleteDirectory(p(guess), { recursive: true, missingOk: false }), 'not_found');
      expect(await provider.deleteFile(p(guess), { missingOk: true })).toEqual({ deleted: false });
      await expectFailure(provider.writeFile(p(guess), bytes('EVIL'), { overwrite: true }), 'protected_path');
      await expectFailure(provider.makeDirectory(p(`${guess}/x`), { parents: true, existOk: true }), 'protected_path');
      expect(() => provider.hostPath?.(p(guess))).toThrow(/Nothing exists/);
    }
    expect(await provider.stat(p(STAGING))).toEqual({ kind: 'missing', sizeBytes: null, modifiedAt: null });
    await expectFailure(provider.stat(p(`${STAGING}/0123456789abcdef.0.cafe`)), 'not_found');
    expect((await provider.listDirectory(p('.'), { limit: 10 })).entries.map((entry) => entry.name)).toEqual(['f.txt', 'sub']);
    expect((await provider.listDirectory(p('sub'), { limit: 10 })).entries).toEqual([]);
    expect(readFileSync(sandbox.at(`${STAGING}/0123456789abcdef.0.cafe`), 'utf8')).toBe('LEFTOVER');
    expect(readFileSync(sandbox.at(`sub/${STAGING}/t`), 'utf8')).toBe('NESTED');
  });

  it('the staging directory is owner-only, and a finished write leaves nothing in it', async () => {
    const { sandbox, provider } = track(createLocalTestbed());
    await provider.writeFile(p('a/b.txt'), bytes('x'), { overwrite: false });
    await provider.writeFile(p('a/b.txt'), bytes('y'), { overwrite: true });
    const { statSync } = await import('node:fs');
    expect((statSync(sandbox.at(STAGING)).mode & 0o777).toString(8)).toBe('700');
    expect(stagedEntries(sandbox.at(STAGING))).toEqual([]);
  });
});

describe('an agent attacking an approved write through the tools', () => {
  it('lists, overwrites, imports and deletes whatever it sees during 20 approved writes: every approved byte lands', async () => {
    const { provider } = track(createLocalTestbed());
    const approved = new Set<string>();
    const runtime = await createRuntime({
      provider,
      config: {
        grants: [
          { path: '.', tree: true, rights: ['read', 'write', 'delete'] },
          { path: 'doc.txt', rights: ['write'], mode: 'ask' },
        ],
        labels: [{ path: 'doc.txt', label: 'secret' }],
      },
      // Approves exactly the contents the owner meant to write, nothing the attacker sends.
      approver: async (request) => (request.content_sha256 !== null && approved.has(request.content_sha256) ? 'approve' : 'reject'),
    });
    try {
      const owner = runtime.spawn();
      const attacker = runtime.spawn();
      const seen = new Set<string>();
      let done = false;
      const attack = async (): Promise<number> => {
        let rounds = 0;
        while (!done) {
          const listing = await attacker.call('read_directory', { path: '.' });
          if (!listing.ok) throw new Error(JSON.stringify(listing.error));
          for (const entry of listing.result.entries as ReadonlyArray<{ name: string; path: string }>) {
            seen.add(entry.name);
            if (entry.name === 'doc.txt') continue;
            await attacker.call('write_text_file', { path: entry.path, content: 'EVIL' });
            await attacker.call('create_object_from_file', { name: `copy-${rounds}`, path: entry.path });
            await attacker.call('delete_file', { path: entry.path });
          }
          for (const guess of [STAGING, `${STAGING}/x`]) {
            const write = await attacker.call('write_text_file', { path: guess, content: 'EVIL' });
            expect(write.ok).toBe(false);
            const read = await attacker.call('read_text_file', { path: guess });
            expect(read.ok ? 'read' : read.error.code).toBe('not_found');
          }
          rounds++;
          await new Promise((resolve) => setImmediate(resolve));
        }
        return rounds;
      };
      const own = async (): Promise<void> => {
        try {
          for (let round = 0; round < 20; round++) {
            const content = `APPROVED ${round} `.repeat(50_000);
            approved.add(createHash('sha256').update(content).digest('hex'));
            const outcome = await owner.call('write_text_file', { path: 'doc.txt', content });
            expect(outcome.ok && outcome.result.bytes_written).toBe(Buffer.byteLength(content));
            const back = await owner.call('read_text_file', { path: 'doc.txt', max_bytes: 1 << 20 });
            expect(back.ok && back.result.content === content).toBe(true);
          }
        } finally {
          done = true;
        }
      };
      const [, rounds] = await Promise.all([own(), attack()]);
      expect(rounds).toBeGreaterThan(0);
      expect([...seen]).toEqual(['doc.txt']);
    } finally {
      await runtime.close();
    }
  });
});

describe('a temporary tampered with on the host is never put in place', () => {
  const tampers: ReadonlyArray<readonly [string, (staged: string, sandbox: { at(path: string): string }) => void]> = [
    ['removed', (staged) => unlinkSync(staged)],
    ['replaced by another file of the same size', (staged) => (unlinkSync(staged), writeFileSync(staged, 'EVIL!'))],
    ['extended in place', (staged) => appendFileSync(staged, 'EVIL')],
    ['given a second name', (staged, sandbox) => linkSync(staged, sandbox.at('twin'))],
  ];
  for (const [label, tamper] of tampers) {
    for (const overwrite of [true, false]) {
      it(`${label}, writing with overwrite: ${overwrite}: changed_during_operation, nothing changed`, async () => {
        let pending = true;
        const { sandbox, provider } = track(
          createLocalTestbed({
            afterResolveStep: (step) => {
              if (step.stage !== 'effect' || !pending) return;
              pending = false;
              const [name = ''] = stagedTemporaries(sandbox.at(STAGING));
              tamper(sandbox.at(`${STAGING}/${name}`), sandbox);
            },
          }),
        );
        if (overwrite) writeFileSync(sandbox.at('f.txt'), 'old');
        await expectFailure(provider.writeFile(p('f.txt'), bytes('new!!'), { overwrite }), 'changed_during_operation');
        expect(overwrite ? readFileSync(sandbox.at('f.txt'), 'utf8') : readdirSync(sandbox.root).includes('f.txt')).toBe(overwrite ? 'old' : false);
      });
    }
  }
});
