import { LibosError, parseConfig, type AccessRequest, type ConfigInput, type Right, type TargetKind, type WorkspacePath } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { createAuthority } from '../src/authority/create-authority.js';

// The right and target every tool asks for (docs/rules.md, Authority).
const TOOLS: readonly [tool: string, right: Right, target: TargetKind][] = [
  ['read_directory', 'read', 'directory'],
  ['set_working_directory', 'read', 'directory'],
  ['read_text_file', 'read', 'file'],
  ['write_text_file', 'write', 'file'],
  ['write_directory', 'write', 'directory'],
  ['delete_file', 'delete', 'file'],
  ['delete_directory', 'delete', 'directory'],
  ['create_object_from_file', 'read', 'file'],
  ['write_object_to_file', 'write', 'file'],
];

const RIGHTS: readonly Right[] = ['read', 'write', 'delete'];
type Outcome = 'allowed' | 'denied' | 'approval_required';
type Grants = NonNullable<ConfigInput['grants']>;

// Each case: a policy, the canonical target, and the outcome for a file and for a directory target.
interface MatchCase {
  readonly name: string;
  readonly grants: (right: Right, others: Right[]) => Grants | undefined;
  readonly path: string;
  readonly file: Outcome;
  readonly directory: Outcome;
}

const CASES: readonly MatchCase[] = [
  { name: 'no policy allows everything', grants: () => undefined, path: 'src/a', file: 'allowed', directory: 'allowed' },
  { name: 'an empty policy denies everything', grants: () => [], path: 'src/a', file: 'denied', directory: 'denied' },
  {
    name: 'an exact grant matches files only',
    grants: (right) => [{ path: 'src/a', rights: [right] }],
    path: 'src/a',
    file: 'allowed',
    directory: 'denied',
  },
  {
    name: 'a tree grant at the path matches both',
    grants: (right) => [{ path: 'src/a', tree: true, rights: [right] }],
    path: 'src/a',
    file: 'allowed',
    directory: 'allowed',
  },
  {
    name: 'a tree grant at the parent matches both',
    grants: (right) => [{ path: 'src', tree: true, rights: [right] }],
    path: 'src/a',
    file: 'allowed',
    directory: 'allowed',
  },
  {
    name: 'a tree grant at the root matches both',
    grants: (right) => [{ path: '.', tree: true, rights: [right] }],
    path: 'src/a',
    file: 'allowed',
    directory: 'allowed',
  },
  {
    name: 'a tree grant at the root matches the root',
    grants: (right) => [{ path: '.', tree: true, rights: [right] }],
    path: '.',
    file: 'allowed',
    directory: 'allowed',
  },
  {
    name: 'an exact grant at the root matches only a file operation on the root',
    grants: (right) => [{ path: '.', rights: [right] }],
    path: '.',
    file: 'allowed',
    directory: 'denied',
  },
  {
    name: 'an exact grant at an ancestor matches nothing below',
    grants: (right) => [
      { path: 'src', rights: [right] },
      { path: '.', rights: [right] },
    ],
    path: 'src/a',
    file: 'denied',
    directory: 'denied',
  },
  {
    name: 'a grant below the path does not match it',
    grants: (right) => [{ path: 'src/a/b', tree: true, rights: [right] }],
    path: 'src/a',
    file: 'denied',
    directory: 'denied',
  },
  {
    name: 'a tree grant on a name sharing a prefix does not match',
    grants: (right) => [
      { path: 'sr', tree: true, rights: [right] },
      { path: 'src/a2', tree: true, rights: [right] },
    ],
    path: 'src/a',
    file: 'denied',
    directory: 'denied',
  },
  {
    name: 'a grant of the other rights does not match (write never implies delete)',
    grants: (_right, others) => [{ path: '.', tree: true, rights: others }],
    path: 'src/a',
    file: 'denied',
    directory: 'denied',
  },
  {
    name: 'a deny grant for another right changes nothing',
    grants: (right, others) => [
      { path: '.', tree: true, rights: [right] },
      { path: 'src', tree: true, rights: others, mode: 'deny' },
    ],
    path: 'src/a',
    file: 'allowed',
    directory: 'allowed',
  },
  {
    name: 'deny at an ancestor beats allow at the path',
    grants: (right) => [
      { path: 'src/a', tree: true, rights: [right] },
      { path: 'src', tree: true, rights: [right], mode: 'deny' },
    ],
    path: 'src/a',
    file: 'denied',
    directory: 'denied',
  },
  {
    name: 'an exact deny beats a tree allow for files; directories ignore it',
    grants: (right) => [
      { path: '.', tree: true, rights: [right] },
      { path: 'src/a', rights: [right], mode: 'deny' },
    ],
    path: 'src/a',
    file: 'denied',
    directory: 'allowed',
  },
  {
    name: 'deny beats ask',
    grants: (right) => [
      { path: 'src', tree: true, rights: [right], mode: 'ask' },
      { path: 'src/a', tree: true, rights: [right], mode: 'deny' },
    ],
    path: 'src/a',
    file: 'denied',
    directory: 'denied',
  },
  {
    name: 'ask beats allow, in either order',
    grants: (right) => [
      { path: 'src/a', tree: true, rights: [right] },
      { path: '.', tree: true, rights: [right], mode: 'ask' },
      { path: 'src', tree: true, rights: [right] },
    ],
    path: 'src/a',
    file: 'approval_required',
    directory: 'approval_required',
  },
  {
    name: 'an exact ask applies to files only',
    grants: (right) => [
      { path: '.', tree: true, rights: [right] },
      { path: 'src/a', rights: [right], mode: 'ask' },
    ],
    path: 'src/a',
    file: 'approval_required',
    directory: 'allowed',
  },
];

async function outcomeOf(authority: ReturnType<typeof createAuthority>, request: AccessRequest): Promise<Outcome> {
  try {
    (await authority.authorize(request)).spend();
    return 'allowed';
  } catch (error) {
    if (LibosError.is(error, 'denied', 'approval_required')) return error.code as Outcome;
    throw error;
  }
}

function requestFor(tool: string, right: Right, target: TargetKind, path: string): AccessRequest {
  return { tool, right, target, path: path as WorkspacePath, argumentsSha256: '0'.repeat(64) };
}

describe('grant matching', () => {
  const rows = TOOLS.flatMap(([tool, right, target]) => CASES.map((matchCase) => ({ tool, right, target, matchCase })));
  it.each(rows)('$tool ($right, $target): $matchCase.name', async ({ tool, right, target, matchCase }) => {
    const others = RIGHTS.filter((other) => other !== right);
    const grants = matchCase.grants(right, others);
    const authority = createAuthority({ config: parseConfig(grants === undefined ? {} : { grants }) });
    const expected = target === 'file' ? matchCase.file : matchCase.directory;
    expect(await outcomeOf(authority, requestFor(tool, right, target, matchCase.path))).toBe(expected);
  });

  it.each(TOOLS)('%s with only the other two rights granted is denied', async (tool, right, target) => {
    for (const other of RIGHTS.filter((candidate) => candidate !== right)) {
      const authority = createAuthority({ config: parseConfig({ grants: [{ path: '.', tree: true, rights: [other] }] }) });
      expect(await outcomeOf(authority, requestFor(tool, right, target, 'x'))).toBe('denied');
    }
  });
});

describe('denials', () => {
  it.each([
    ['read', 'Reading "src/a.txt" is not permitted.'],
    ['write', 'Writing "src/a.txt" is not permitted.'],
    ['delete', 'Deleting "src/a.txt" is not permitted.'],
  ] as const)('name only the %s right and the canonical path', async (right, message) => {
    const authority = createAuthority({ config: parseConfig({ grants: [] }) });
    const error = await authority.authorize(requestFor('any', right, 'file', 'src/a.txt')).catch((caught) => caught);
    expect(LibosError.is(error, 'denied')).toBe(true);
    expect(error.toFailure()).toEqual({ code: 'denied', message, effect: 'none', details: { right, path: 'src/a.txt' } });
  });

  it("say the deciding deny grant's reason, and only a deny grant's, whatever else matches", async () => {
    const authority = createAuthority({
      config: parseConfig({
        grants: [
          { path: '.', tree: true, rights: ['read', 'write'], mode: 'ask' },
          { path: 'docs', tree: true, rights: ['write', 'delete'], mode: 'deny', reason: 'the mount "docs" is read-only' },
        ],
      }),
    });
    const error = await authority.authorize(requestFor('any', 'write', 'file', 'docs/a.md')).catch((caught) => caught);
    expect(error.toFailure()).toEqual({
      code: 'denied',
      message: 'Writing "docs/a.md" is not permitted: the mount "docs" is read-only.',
      effect: 'none',
      details: { right: 'write', path: 'docs/a.md', reason: 'the mount "docs" is read-only' },
    });
    // No grant gives delete outside docs: a plain denial, with no reason borrowed from elsewhere.
    const plain = await authority.authorize(requestFor('any', 'delete', 'file', 'src/a.md')).catch((caught) => caught);
    expect(plain.message).toBe('Deleting "src/a.md" is not permitted.');
  });

  it('quote a path holding quotes or control characters', async () => {
    const authority = createAuthority({ config: parseConfig({ grants: [] }) });
    const error = await authority.authorize(requestFor('any', 'read', 'file', 'a"b\nc')).catch((caught) => caught);
    expect(error.message).toBe('Reading "a\\"b\\nc" is not permitted.');
  });
});

describe('deleting a directory', () => {
  const policy = (below: Grants[number]) =>
    createAuthority({ config: parseConfig({ grants: [{ path: '.', tree: true, rights: ['delete'] }, below] }) });

  it.each<[string, Grants[number], Outcome]>([
    ['an exact deny below it', { path: 'src/keep.txt', rights: ['delete'], mode: 'deny' }, 'denied'],
    ['a tree deny below it', { path: 'src/deep/keep', tree: true, rights: ['delete'], mode: 'deny' }, 'denied'],
    ['an ask below it', { path: 'src/keep.txt', rights: ['delete'], mode: 'ask' }, 'approval_required'],
    ['an allow below it', { path: 'src/keep.txt', rights: ['delete'] }, 'allowed'],
    ['a deny of another right below it', { path: 'src/keep.txt', rights: ['write'], mode: 'deny' }, 'allowed'],
    ['a deny in a sibling sharing a prefix', { path: 'src2/keep.txt', rights: ['delete'], mode: 'deny' }, 'allowed'],
  ])('hears %s, since a recursive delete would remove it', async (_name, below, expected) => {
    expect(await outcomeOf(policy(below), requestFor('delete_directory', 'delete', 'directory', 'src'))).toBe(expected);
  });

  it('leaves file deletes beside a guarded file alone', async () => {
    const authority = policy({ path: 'src/keep.txt', rights: ['delete'], mode: 'deny' });
    expect(await outcomeOf(authority, requestFor('delete_file', 'delete', 'file', 'src/other.txt'))).toBe('allowed');
    expect(await outcomeOf(authority, requestFor('delete_file', 'delete', 'file', 'src/keep.txt'))).toBe('denied');
  });
});
