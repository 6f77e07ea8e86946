import { fork } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { afterAll, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { explainable, type ApplyStep, type NameState, type PersonEdit } from './linearizable.js';
import { createSandbox } from './local-sandbox.js';

// Edits by the second process in all: 10,000 under `pnpm test:stress` (LIBOS_STRESS=1), 600 in the default run.
const TARGET_EDITS = Number(process.env.LIBOS_OVERLAY_ATTACK_EDITS ?? (process.env.LIBOS_STRESS === '1' ? 10_000 : 600));
const EDITOR = fileURLToPath(new URL('./children/person-editor.mjs', import.meta.url));
const sandbox = createSandbox();
afterAll(() => sandbox.remove());

const path = (name: string) => resolveWorkspacePath(ROOT_PATH, name);
const bytes = (text: string) => new TextEncoder().encode(text);
const NAMES = ['m0', 'm1', 'm2', 'm3', 'd0', 'd1', 'c0', 'c1'];

type Edit = PersonEdit & { name: string };

/** The steps the apply may have taken on a name, as the alternatives its result leaves open. */
function stepsOf(name: string, base: NameState, agent: string, rolledBack: boolean, applied: boolean): ApplyStep[][] {
  const deletion = name.startsWith('d');
  const forward: ApplyStep = deletion
    ? { kind: 'take', expect: base as string, required: true }
    : { kind: 'swap', from: base, to: agent, required: true };
  // A step that met a conflict changed nothing, though a delete may have moved the person's file aside and back.
  const tried: ApplyStep[][] = deletion ? [[], [{ ...forward, required: false }]] : [[]];
  if (!rolledBack) return applied ? [[forward]] : tried;
  // Rolled back: a step either met the conflict, never ran, or landed and was put back (unless the person changed it since).
  const back: ApplyStep = deletion
    ? { kind: 'swap', from: null, to: base, required: false }
    : base === null
      ? { kind: 'take', expect: agent, required: false }
      : { kind: 'swap', from: agent, to: base, required: false };
  return [...tried, [forward, back]];
}

describe('the interleaving check', () => {
  it('explains what atomic steps give and nothing else', () => {
    const write = (content: string) => ({ op: 'write' as const, content });
    const replace: ApplyStep[][] = [[{ kind: 'swap', from: 'base', to: 'agent', required: true }]];
    // The person wrote before the apply looked: the apply must then have found a conflict.
    expect(explainable('base', [write('mine')], replace, 'agent')).toBe(false);
    expect(explainable('base', [write('mine')], [[]], 'mine')).toBe(true);
    // The person wrote after the apply landed: theirs shows.
    expect(explainable('base', [write('mine')], replace, 'mine')).toBe(true);
    // A person's delete of what the apply created must show; one of a name they created first may precede the creation.
    const create: ApplyStep[][] = [[{ kind: 'swap', from: null, to: 'agent', required: true }]];
    expect(explainable(null, [{ op: 'delete' }], create, 'agent')).toBe(false);
    expect(explainable(null, [{ ...write('mine'), exclusive: true }, { op: 'delete' }], create, 'agent')).toBe(true);
    // A roll back that wrote over the person's edit is not explainable.
    const rolled: ApplyStep[][] = [
      [
        { kind: 'swap', from: 'base', to: 'agent', required: true },
        { kind: 'swap', from: 'agent', to: 'base', required: false },
      ],
    ];
    expect(explainable('base', [write('mine')], rolled, 'base')).toBe(false);
    expect(explainable('base', [write('mine')], rolled, 'mine')).toBe(true);
    // A delete that found the person's file puts it back; only their newer write may stand in its place.
    const take: ApplyStep[][] = [[{ kind: 'take', expect: 'base', required: false }]];
    expect(explainable('base', [write('mine')], take, null)).toBe(false);
    expect(explainable('base', [write('mine')], take, 'mine')).toBe(true);
    expect(explainable('base', [write('mine'), { ...write('again'), exclusive: true }], take, 'again')).toBe(true);
  });
});

describe('a person edits the same files in another process while apply runs', () => {
  it(
    `never loses one of their edits (${TARGET_EDITS} edits)`,
    async () => {
      const lower = createLocalProvider({ root: sandbox.root });
      const overlay = await openOverlay({ lower, state: join(sandbox.stateDirectory, 'attack.overlay') });
      const editor = fork(EDITOR, [sandbox.root, JSON.stringify(NAMES)], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        // The child loads the built packages, not the test run's TypeScript sources.
        execArgv: [],
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      const messages: Array<(message: { round?: number; log?: Edit[]; ready?: boolean }) => void> = [];
      editor.on('message', (message) => messages.shift()?.(message as never));
      const next = () => new Promise<{ round?: number; log?: Edit[] }>((resolve) => messages.push(resolve));
      await next();
      let edits = 0;
      let conflicts = 0;
      let applied = 0;
      for (let round = 0; edits < TARGET_EDITS; round++) {
        // The lower as this round starts: the modified and deleted names exist, the created ones not.
        for (const name of NAMES) {
          if (name.startsWith('c')) await lower.deleteFile(path(name), { missingOk: true });
          else await lower.writeFile(path(name), bytes(`base ${round}\n`), { overwrite: true });
        }
        await overlay.discard();
        const agentContent = `agent ${round}\n`;
        for (const name of NAMES) {
          if (name.startsWith('d')) await overlay.provider.deleteFile(path(name), { missingOk: false });
          else await overlay.provider.writeFile(path(name), bytes(agentContent), { overwrite: true });
        }
        editor.send({ type: 'go', round });
        const mode = round % 2 === 0 ? 'per_file' : 'all_or_nothing';
        const result = await overlay.apply({ mode });
        editor.send({ type: 'stop' });
        const { log = [] } = await next();
        edits += log.length;
        conflicts += result.conflicts.length;
        applied += result.applied.length;
        const rolledBack = mode === 'all_or_nothing' && result.apply_id === null;
        for (const name of NAMES) {
          const host = join(sandbox.root, name);
          const now = existsSync(host) ? readFileSync(host, 'utf8') : null;
          const base = name.startsWith('c') ? null : `base ${round}\n`;
          const alternatives = stepsOf(name, base, agentContent, rolledBack, result.applied.includes(name));
          const theirs = log.filter((edit) => edit.name === name);
          // Every edit of theirs still shows: what the disk holds follows from their edits and the apply's atomic steps.
          const seen = { round, mode, name, now, applied: result.applied.includes(name), theirs: JSON.stringify(theirs) };
          expect({ ...seen, explained: explainable(base, theirs, alternatives, now) }).toEqual({ ...seen, explained: true });
        }
        // No aside file is ever left behind.
        expect(readdirSync(sandbox.root).filter((name) => name.startsWith('.libos-overlay'))).toEqual([]);
      }
      editor.send({ type: 'exit' });
      await overlay.close();
      await lower.close();
      expect(edits).toBeGreaterThanOrEqual(TARGET_EDITS);
      // Both outcomes happened: some changes landed, some met the person's edits.
      expect(applied).toBeGreaterThan(0);
      expect(conflicts).toBeGreaterThan(0);
    },
    30 * 60_000,
  );
});
