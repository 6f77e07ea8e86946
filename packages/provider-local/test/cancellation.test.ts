import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import type { ResolveStep } from '../src/testing.js';
import { expectFailure } from './expect-error.js';
import { createLocalTestbed, fingerprintTree, hostNames, trackTestbeds } from './local-testbed.js';

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const track = trackTestbeds();

// The hook runs synchronously between resolution steps, so the abort lands at a known point: no timers.
function bedAbortingAt(when: (step: ResolveStep) => boolean) {
  const controller = new AbortController();
  const bed = track(createLocalTestbed({ afterResolveStep: (step) => void (when(step) && controller.abort()) }));
  return { ...bed, signal: controller.signal };
}

describe('cancellation', () => {
  it('refuses every method when the signal has already aborted, changing nothing', async () => {
    const { sandbox, provider } = track(createLocalTestbed());
    writeFileSync(sandbox.at('f'), 'x');
    mkdirSync(sandbox.at('d'));
    const before = fingerprintTree(sandbox.base);
    const signal = AbortSignal.abort();
    const calls = [
      () => provider.stat(p('f'), { signal }),
      () => provider.listDirectory(p('.'), { limit: 10, signal }),
      () => provider.readFile(p('f'), { maxBytes: 10, signal }),
      () => provider.writeFile(p('f'), bytes('y'), { overwrite: true, signal }),
      () => provider.makeDirectory(p('e'), { parents: true, existOk: true, signal }),
      () => provider.deleteFile(p('f'), { missingOk: false, signal }),
      () => provider.deleteDirectory(p('d'), { recursive: true, missingOk: false, signal }),
    ];
    for (const call of calls) {
      const error = await expectFailure(call, 'provider_failure', 'none');
      expect(error.details).toMatchObject({ reason: 'cancelled' });
    }
    expect(fingerprintTree(sandbox.base)).toBe(before);
  });

  it('stops a write cancelled while its bytes were staged: the name never appears, nothing is left', async () => {
    const { sandbox, provider, signal } = bedAbortingAt((step) => step.operation === 'writeFile' && step.path === 'a');
    mkdirSync(sandbox.at('a'));
    await expectFailure(provider.writeFile(p('a/new.txt'), bytes('never'), { overwrite: false, signal }), 'provider_failure', 'none');
    expect(hostNames(sandbox.root, { recursive: true })).toEqual(['a']);
  });

  it('stops a recursive delete between two directories, says effect unknown and leaves the rest', async () => {
    const { sandbox, provider, signal } = bedAbortingAt((step) => step.operation === 'deleteDirectory' && step.path.startsWith('t/d'));
    for (let index = 0; index < 10; index++) {
      mkdirSync(sandbox.at(`t/d${index}`), { recursive: true });
      writeFileSync(join(sandbox.at(`t/d${index}`), 'f'), 'x');
    }
    const error = await expectFailure(provider.deleteDirectory(p('t'), { recursive: true, missingOk: false, signal }), 'provider_failure', 'unknown');
    expect(error.details).toEqual({ path: 't', reason: 'cancelled' });
    // The directory entered when the abort came is finished; the other nine are untouched.
    expect(readdirSync(sandbox.at('t'))).toHaveLength(9);
  });

  it('lets a call finish that was not cancelled', async () => {
    const { sandbox, provider } = track(createLocalTestbed());
    const controller = new AbortController();
    await provider.writeFile(p('f'), bytes('kept'), { overwrite: true, signal: controller.signal });
    controller.abort();
    expect(hostNames(sandbox.root)).toEqual(['f']);
  });
});
