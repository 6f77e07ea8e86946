import { describe, expect, it } from 'vitest';
import { conformanceCases, defineCase, describeProvider, runCase } from '../src/index.js';
import type { ConformanceCase, ProviderFactory, ProviderUnderTest } from '../src/index.js';
import { memfsTestbed } from './memfs-testbed.js';

function caseFor(id: string): ConformanceCase {
  const testCase = conformanceCases.find((candidate) => candidate.id === id);
  if (testCase === undefined) throw new Error(`No case ${id}`);
  return testCase;
}

/** A memfs factory that logs close() and its cleanups, with parts of the provider or fixtures changed. */
function loggingFactory(log: string[], change: (underTest: ProviderUnderTest) => ProviderUnderTest = (same) => same): ProviderFactory {
  return ({ onCleanup }) => {
    const { underTest } = memfsTestbed();
    onCleanup(() => void log.push('first cleanup'));
    onCleanup(() => void log.push('second cleanup'));
    const provider = { ...underTest.provider, close: async () => void log.push('close') };
    return change({ ...underTest, provider });
  };
}

const symlinkCase = caseFor('symlinks > listing shows every link as kind symlink without following it');

describe('runCase', () => {
  it('passes a correct provider, then closes it and runs cleanups last registered first', async () => {
    const log: string[] = [];
    expect(await runCase(caseFor('stat > the root is a directory'), loggingFactory(log))).toEqual({ status: 'passed' });
    expect(log).toEqual(['close', 'second cleanup', 'first cleanup']);
  });

  it('closes and cleans up after a failure too', async () => {
    const log: string[] = [];
    const failing = defineCase('kit', 'always fails', async () => {
      throw new Error('boom');
    });
    const outcome = await runCase(failing, loggingFactory(log));
    expect(outcome.status).toBe('failed');
    expect(log).toEqual(['close', 'second cleanup', 'first cleanup']);
  });

  it('skips a case whose capability the provider does not declare, and says which', async () => {
    const log: string[] = [];
    const noLinks = loggingFactory(log, (underTest) => ({
      ...underTest,
      provider: { ...underTest.provider, capabilities: { ...underTest.provider.capabilities, symlinks: false } },
    }));
    expect(await runCase(symlinkCase, noLinks)).toEqual({ status: 'skipped', reason: 'the provider does not declare capabilities.symlinks' });
    expect(log).toEqual(['close', 'second cleanup', 'first cleanup']);
  });

  it('fails, not skips, a case whose declared capability lacks its fixtures', async () => {
    const noLinkFixtures: ProviderFactory = () => {
      const { underTest } = memfsTestbed();
      const { symlink: _symlink, hardLink: _hardLink, outside: _outside, ...fixtures } = underTest.fixtures;
      return { ...underTest, fixtures };
    };
    const outcome = await runCase(symlinkCase, noLinkFixtures);
    expect(outcome.status).toBe('failed');
    expect(String((outcome as { error: Error }).error.message)).toBe(
      'The fixtures lack symlink (capabilities.symlinks is declared), outside (capabilities.symlinks is declared), hardLink (capabilities.hardLinks is declared).',
    );
    expect(await runCase(caseFor('writing > creates a file and reports created'), noLinkFixtures)).toEqual({ status: 'passed' });
  });

  it('skips a case whose optional fixture is absent, and says which', async () => {
    const withoutOptional: ProviderFactory = () => {
      const { underTest } = memfsTestbed();
      const { fifo: _fifo, modes: _modes, removeWorkspace: _remove, ...fixtures } = underTest.fixtures;
      const { hardLinkFromOutside: _outside, ...outside } = fixtures.outside!;
      return { ...underTest, fixtures: { ...fixtures, outside } };
    };
    const outcomes = await Promise.all(
      [
        'special files > no call on a fifo blocks, even all at once',
        'writing > replacing a file keeps its mode bits',
        'hard links > readFile on a file hard-linked from outside -> hard_link_refused',
        'lifecycle > every call after the workspace root is removed fails and recreates nothing',
      ].map((id) => runCase(caseFor(id), withoutOptional)),
    );
    expect(outcomes).toEqual([
      { status: 'skipped', reason: 'the factory does not provide fifo' },
      { status: 'skipped', reason: 'the factory does not provide modes' },
      { status: 'skipped', reason: 'the factory does not provide outside.hardLinkFromOutside' },
      { status: 'skipped', reason: 'the factory does not provide removeWorkspace' },
    ]);
  });

  it('fails a case that never settles instead of hanging', async () => {
    const hanging = defineCase('kit', 'never settles', () => new Promise<void>(() => {}));
    const outcome = await runCase(hanging, () => memfsTestbed().underTest, { timeoutMs: 50 });
    expect(outcome.status).toBe('failed');
    expect(String((outcome as { error: Error }).error.message)).toContain('still running after 50 ms');
  });

  it('fails a passed case whose cleanup throws, and a case whose factory throws', async () => {
    const badCleanup: ProviderFactory = ({ onCleanup }) => {
      onCleanup(() => {
        throw new Error('cleanup failed');
      });
      return memfsTestbed().underTest;
    };
    expect((await runCase(caseFor('stat > the root is a directory'), badCleanup)).status).toBe('failed');
    const badFactory: ProviderFactory = () => {
      throw new Error('no provider');
    };
    expect((await runCase(caseFor('stat > the root is a directory'), badFactory)).status).toBe('failed');
  });
});

describe('conformanceCases', () => {
  it('have unique ids of the form <group> > <name>', () => {
    const ids = conformanceCases.map((testCase) => testCase.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const testCase of conformanceCases) {
      expect(testCase.id).toBe(`${testCase.group} > ${testCase.name}`);
      expect(testCase.name).not.toContain(' > ');
    }
  });

  it('cover every group', () => {
    expect([...new Set(conformanceCases.map((testCase) => testCase.group))].sort()).toEqual(
      [
        '.git',
        'append',
        'atomic replace',
        'cancellation',
        'check path',
        'copy',
        'deleting directories',
        'deleting files',
        'errors',
        'exclusive create',
        'directory batch reads',
        'directory handles',
        'hard links',
        'lifecycle',
        'listing',
        'making directories',
        'names',
        'reading',
        'reading ranges',
        'rename',
        'special files',
        'stat',
        'symlinks',
        'tree search',
        'temporaries',
        'write modes',
        'writing',
      ].sort(),
    );
  });

  it('gate every link, hard-link and FIFO case on its capability', () => {
    const gated = { symlinks: 'symlinks', 'hard links': 'hardLinks', 'special files': 'specialFiles' } as const;
    for (const testCase of conformanceCases) {
      const capability = gated[testCase.group as keyof typeof gated];
      if (capability !== undefined) expect(testCase.requires.capabilities ?? []).toContain(capability);
    }
  });
});

describe('describeProvider', () => {
  it('refuses options.skip entries that name no case', () => {
    expect(() => describeProvider('memfs', () => memfsTestbed().underTest, { skip: { 'listing > no such case': 'stale' } })).toThrow(/names no case/);
  });
});
