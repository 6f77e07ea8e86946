import type { CaseRequirements } from '../conformance-case.js';
import type { CaseFixtures } from '../provider-fixtures.js';
import { OLD_CONTENT } from './operations.js';

/** A state the fixtures build before an operation, and the path the operation then targets. */
export interface Precondition {
  /** The group its rows report under, so gating and ids follow the feature under test. */
  readonly group: string;
  readonly requires: CaseRequirements;
  setup(fixtures: CaseFixtures): Promise<string>;
  /** The values its refusals must name (see `detail-values.ts`), where the state decides them. */
  readonly names?: PreconditionNames;
}

/** What a refusal of this state names in `details`: the missing ancestor, the file component, the link, the kind. */
export interface PreconditionNames {
  /** `not_found`: the first missing component. */
  readonly missing?: string;
  /** `not_a_directory`: the component that is not a directory. */
  readonly component?: string;
  /** `symlink_refused`: the link met. */
  readonly link?: string;
  /** `not_a_file`: why the target is not a regular file. */
  readonly kind?: 'directory' | 'other';
}

const plain = (setup: Precondition['setup'], names?: PreconditionNames): Precondition => ({
  group: 'errors',
  requires: {},
  setup,
  ...(names === undefined ? {} : { names }),
});
const hardLinks = (setup: Precondition['setup'], requires: CaseRequirements = {}): Precondition => ({
  group: 'hard links',
  requires: { capabilities: ['hardLinks'], fixtures: requires.fixtures ?? [] },
  setup,
});
const special = (setup: Precondition['setup'], names: PreconditionNames): Precondition => ({
  group: 'special files',
  requires: { capabilities: ['specialFiles'], fixtures: ['fifo'] },
  setup,
  names,
});

function fifo(fixtures: CaseFixtures, path: string): Promise<void> {
  if (fixtures.fifo === undefined) throw new Error('The case requires the fifo fixture.');
  return fixtures.fifo(path);
}

/** States without links, plus hard links and FIFOs; link states come from `linkPreconditions`. */
export const basicPreconditions = {
  missing: plain(async () => 'target', { missing: 'target' }),
  'a missing parent': plain(async () => 'absent/target', { missing: 'absent' }),
  'a file': plain(async (fixtures) => (await fixtures.writeFile('target', OLD_CONTENT), 'target'), { component: 'target' }),
  'a directory': plain(async (fixtures) => (await fixtures.makeDirectory('target'), 'target'), { kind: 'directory' }),
  'a non-empty directory': plain(async (fixtures) => (await fixtures.writeFile('target/child.txt', OLD_CONTENT), 'target'), { kind: 'directory' }),
  'the root': plain(async (fixtures) => (await fixtures.writeFile('kept.txt', OLD_CONTENT), '.'), { kind: 'directory' }),
  'a path through a file': plain(async (fixtures) => (await fixtures.writeFile('file.txt', OLD_CONTENT), 'file.txt/target'), {
    component: 'file.txt',
  }),
  'a path through a nested file': plain(async (fixtures) => (await fixtures.writeFile('a/file.txt', OLD_CONTENT), 'a/file.txt/b/target'), {
    component: 'a/file.txt',
  }),
  'a directory holding only an empty directory': plain(async (fixtures) => (await fixtures.makeDirectory('target/sub'), 'target')),
  'a directory holding only a .git directory': plain(async (fixtures) => (await fixtures.makeDirectory('target/.git'), 'target')),
  'a directory holding only a link': {
    group: 'symlinks',
    requires: { capabilities: ['symlinks'] },
    async setup(fixtures) {
      await fixtures.writeFile('insidedir/x', OLD_CONTENT);
      await fixtures.makeDirectory('target');
      await fixtures.symlink('target/ln', '../insidedir');
      return 'target';
    },
  },
  'a directory holding only a fifo': special(
    async (fixtures) => (await fixtures.makeDirectory('target'), await fifo(fixtures, 'target/pipe'), 'target'),
    {},
  ),
  'a fifo': special(async (fixtures) => (await fifo(fixtures, 'target'), 'target'), { kind: 'other', component: 'target' }),
  'a path through a fifo': special(async (fixtures) => (await fifo(fixtures, 'pipe'), 'pipe/target'), { component: 'pipe' }),
  'a hard-linked file': hardLinks(async (fixtures) => {
    await fixtures.writeFile('target', OLD_CONTENT);
    await fixtures.hardLink('target', 'twin');
    return 'target';
  }),
  'a hard-linked file in another directory': hardLinks(async (fixtures) => {
    await fixtures.writeFile('b/twin', OLD_CONTENT);
    await fixtures.makeDirectory('a');
    await fixtures.hardLink('b/twin', 'a/target');
    return 'a/target';
  }),
  'a file hard-linked from outside': hardLinks(
    async (fixtures) => {
      if (fixtures.outside.hardLinkFromOutside === undefined) throw new Error('The case requires outside.hardLinkFromOutside.');
      await fixtures.outside.hardLinkFromOutside('target');
      return 'target';
    },
    { fixtures: ['hardLinkFromOutside'] },
  ),
} satisfies Record<string, Precondition>;

/** The name of one non-link precondition. */
export type BasicPreconditionName = keyof typeof basicPreconditions;

/** What a symbolic link points at, by the name rows use. */
export const linkKinds = [
  'to a file inside',
  'to a directory inside',
  'to a file outside',
  'to a directory outside',
  'dangling',
  'to itself',
  'in a loop of two',
] as const;

/** Where the link sits relative to the path the operation targets. */
export const linkPositions = ['as a root child', 'as a nested target', 'as a root child parent', 'as a middle component'] as const;

/** Tells whether the link is the last component of the operated path. */
export function isLeafPosition(position: (typeof linkPositions)[number]): boolean {
  return position === 'as a root child' || position === 'as a nested target';
}

/** Builds a workspace with inside targets (`inside.txt`, `insidedir/x`) and one link, returning the operated path. */
export function linkPrecondition(kind: (typeof linkKinds)[number], position: (typeof linkPositions)[number]): Precondition {
  const nested = position === 'as a nested target' || position === 'as a middle component';
  const directory = nested ? 'a' : '.';
  const link = nested ? 'a/ln' : 'ln';
  const up = nested ? '../' : '';
  return {
    group: 'symlinks',
    requires: { capabilities: ['symlinks'] },
    names: { link },
    async setup(fixtures) {
      await fixtures.writeFile('inside.txt', OLD_CONTENT);
      await fixtures.writeFile('insidedir/x', OLD_CONTENT);
      await fixtures.makeDirectory('a');
      const target = {
        'to a file inside': `${up}inside.txt`,
        'to a directory inside': `${up}insidedir`,
        'to a file outside': fixtures.outside.fileTarget(directory),
        'to a directory outside': fixtures.outside.directoryTarget(directory),
        dangling: `${up}nowhere`,
        'to itself': 'ln',
        'in a loop of two': 'ln2',
      }[kind];
      await fixtures.symlink(link, target);
      if (kind === 'in a loop of two') await fixtures.symlink(nested ? 'a/ln2' : 'ln2', 'ln');
      return isLeafPosition(position) ? link : `${link}/x`;
    },
  };
}
