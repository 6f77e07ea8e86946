import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OUTSIDE_CONTENT, kindAt } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';
import { runAttack } from './tool-harness.js';
import type { AttackCall } from './tool-harness.js';

// Each case builds a hostile workspace beside an `outside/` directory (secret.txt and
// directory/secret.txt hold OUTSIDE), then attacks through the tools. The harness checks after
// every call that `outside/` is byte-for-byte unchanged and that no result leaks its bytes or a host path.

const read = (path: string): Record<string, unknown> => ({ path });
const write = (path: string, content = 'pwned', extra: Record<string, unknown> = {}): Record<string, unknown> => ({ path, content, ...extra });
const recursive = (path: string): Record<string, unknown> => ({ path, recursive: true });

function tree(sandbox: Sandbox, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(sandbox.at(path), '..'), { recursive: true });
    writeFileSync(sandbox.at(path), content);
  }
}
const link = (sandbox: Sandbox, path: string, target: string): void => symlinkSync(target, sandbox.at(path));
const outsideFile = (sandbox: Sandbox): string => join(sandbox.outside, 'secret.txt');
const outsideDirectory = (sandbox: Sandbox): string => join(sandbox.outside, 'directory');

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});
function socketAt(hostPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    servers.push(server);
    server.once('error', reject);
    server.listen(hostPath, () => resolve());
  });
}

interface AttackCase {
  readonly name: string;
  readonly setup?: (sandbox: Sandbox) => void | Promise<void>;
  readonly calls: readonly AttackCall[] | ((sandbox: Sandbox) => readonly AttackCall[]);
  readonly after?: (sandbox: Sandbox) => void;
}

const GIT_ALIASES = ['.git', '.GIT', '.Git', '.git.', '.git..', '.git ', '.git. ', '.git::$INDEX_ALLOCATION', '.git:x', 'git~1', 'GIT~1', '.g\u200Bit', '\uFEFF.git', '.gıt'];

const cases: AttackCase[] = [
  // Lexical escapes: refused before any filesystem access.
  { name: '.. climbing out of the root', calls: [['read_text_file', read('../outside/secret.txt'), 'outside_workspace']] },
  { name: '.. climbing out from a subdirectory', setup: (s) => mkdirSync(s.at('a')), calls: [['read_text_file', read('a/../../outside/secret.txt'), 'outside_workspace']] },
  { name: '.. in a write target', calls: [['write_text_file', write('../outside/secret.txt'), 'outside_workspace']] },
  { name: '.. in a recursive delete', calls: [['delete_directory', recursive('../outside'), 'outside_workspace']] },
  { name: '.. as the new working directory', calls: [['set_working_directory', read('..'), 'outside_workspace']] },
  { name: 'an absolute host path', calls: (s) => [['read_text_file', read(outsideFile(s)), 'invalid_path'], ['write_text_file', write(outsideFile(s)), 'invalid_path']] },
  { name: 'a // path', calls: [['read_text_file', read('//etc/passwd'), 'invalid_path']] },
  { name: 'a NUL byte', calls: [['read_text_file', read('a\0b'), 'invalid_path'], ['write_text_file', write('x\0/../../outside/secret.txt'), 'invalid_path']] },
  { name: 'a component over 255 bytes', calls: [['write_text_file', write('é'.repeat(128)), 'invalid_path'], ['write_text_file', write('x'.repeat(255)), 'ok']] },
  { name: 'a path over 4096 bytes', calls: [['read_text_file', read('a/'.repeat(2048) + 'b'), 'invalid_path']] },
  {
    name: 'a path 300 directories deep (one fd held at a time)',
    calls: [
      ['write_text_file', write('d/'.repeat(300) + 'f.txt', 'deep'), 'ok'],
      ['read_text_file', read('d/'.repeat(300) + 'f.txt'), (result) => expect(result.content).toBe('deep')],
      ['delete_directory', recursive('d'), 'ok'],
    ],
    after: (s) => expect(existsSync(s.at('d'))).toBe(false),
  },
  {
    name: 'a trailing slash on a file normalizes, a component after a file is not a directory',
    setup: (s) => tree(s, { 'file.txt': 'inside' }),
    calls: [
      ['read_text_file', read('file.txt/'), (result) => expect(result.content).toBe('inside')],
      ['read_text_file', read('file.txt/x'), 'not_a_directory'],
      ['write_text_file', write('file.txt/x'), 'not_a_directory'],
      ['write_directory', read('file.txt/x'), 'not_a_directory'],
    ],
  },
  {
    name: 'lexical .. never visits a link',
    setup: (s) => (link(s, 'escape', outsideDirectory(s)), tree(s, { 'secret.txt': 'inside' })),
    calls: [
      ['read_text_file', read('escape/../secret.txt'), (result) => expect(result.content).toBe('inside')],
      ['write_text_file', write('escape/../new.txt'), 'ok'],
    ],
  },
  // Symbolic links at every position.
  {
    name: 'a root child linking to an outside directory',
    setup: (s) => link(s, 'escape', outsideDirectory(s)),
    calls: [
      ['read_text_file', read('escape/secret.txt'), 'symlink_refused'],
      ['write_text_file', write('escape/secret.txt'), 'symlink_refused'],
      ['write_text_file', write('escape/new.txt'), 'symlink_refused'],
      ['read_directory', read('escape'), 'symlink_refused'],
      ['set_working_directory', read('escape'), 'symlink_refused'],
      ['write_directory', read('escape/sub'), 'symlink_refused'],
      ['delete_file', read('escape/secret.txt'), 'symlink_refused'],
      ['delete_directory', recursive('escape'), 'symlink_refused'],
      ['create_object_from_file', { name: 'loot', path: 'escape/secret.txt' }, 'symlink_refused'],
    ],
    after: (s) => expect(kindAt(s.at('escape'))).toBe('symlink'),
  },
  {
    name: 'a root child linking to an outside file',
    setup: (s) => link(s, 'secret.txt', outsideFile(s)),
    calls: [
      ['read_text_file', read('secret.txt'), 'symlink_refused'],
      ['write_text_file', write('secret.txt'), 'symlink_refused'],
      ['write_text_file', write('secret.txt', 'x', { overwrite: false }), { code: 'symlink_refused', effect: 'none' }],
      ['delete_file', read('secret.txt'), 'symlink_refused'],
      ['write_directory', read('secret.txt'), 'symlink_refused'],
    ],
  },
  {
    name: 'a link in the middle of a path',
    setup: (s) => (mkdirSync(s.at('a/b'), { recursive: true }), link(s, 'a/b/escape', outsideDirectory(s))),
    calls: [
      ['read_text_file', read('a/b/escape/secret.txt'), 'symlink_refused'],
      ['write_text_file', write('a/b/escape/c/new.txt'), 'symlink_refused'],
      ['write_directory', read('a/b/escape/c'), 'symlink_refused'],
      ['delete_directory', recursive('a/b/escape/x'), 'symlink_refused'],
      ['read_directory', read('a/b/escape'), 'symlink_refused'],
    ],
  },
  {
    name: 'a link as the target of a write, read and delete',
    setup: (s) => (mkdirSync(s.at('a')), link(s, 'a/target', outsideFile(s))),
    calls: [
      ['write_text_file', write('a/target', 'x', { expected_content_sha256: 'missing' }), 'symlink_refused'],
      ['write_text_file', write('a/target'), 'symlink_refused'],
      ['read_text_file', read('a/target'), 'symlink_refused'],
      ['delete_file', read('a/target'), 'symlink_refused'],
      ['read_directory', read('a'), (result) => expect(result.entries).toMatchObject([{ name: 'target', kind: 'symlink', size_bytes: null }])],
    ],
  },
  {
    name: 'a link pointing inside the workspace is still refused',
    setup: (s) => (tree(s, { 'real/f.txt': 'inside' }), link(s, 'alias', 'real'), link(s, 'file-alias', 'real/f.txt')),
    calls: [
      ['read_text_file', read('alias/f.txt'), 'symlink_refused'],
      ['read_text_file', read('file-alias'), 'symlink_refused'],
      ['set_working_directory', read('alias'), 'symlink_refused'],
      ['read_text_file', read('real/f.txt'), 'ok'],
    ],
  },
  {
    name: 'link loops',
    setup: (s) => (link(s, 'self', 'self'), link(s, 'ping', 'pong'), link(s, 'pong', 'ping')),
    calls: [
      ['read_text_file', read('self'), 'symlink_refused'],
      ['read_text_file', read('self/x'), 'symlink_refused'],
      ['read_text_file', read('ping/pong/x'), 'symlink_refused'],
      ['write_text_file', write('ping'), 'symlink_refused'],
      ['delete_directory', recursive('pong'), 'symlink_refused'],
    ],
  },
  {
    name: 'dangling links, inside and outside, are never created through',
    setup: (s) => (link(s, 'dangle', 'nowhere'), link(s, 'dangle-out', join(s.outside, 'created-by-attack'))),
    calls: [
      ['read_text_file', read('dangle'), 'symlink_refused'],
      ['write_text_file', write('dangle'), 'symlink_refused'],
      ['write_text_file', write('dangle-out'), 'symlink_refused'],
      ['write_text_file', write('dangle-out', 'x', { overwrite: false }), 'symlink_refused'],
      ['write_directory', read('dangle-out'), 'symlink_refused'],
      ['write_object_to_file', { name: 'missing', path: 'dangle-out' }, 'object_not_found'],
    ],
    after: (s) => (expect(existsSync(s.at('nowhere'))).toBe(false), expect(existsSync(join(s.outside, 'created-by-attack'))).toBe(false)),
  },
  {
    name: 'a link to /',
    setup: (s) => link(s, 'slash', '/'),
    calls: (s) => [
      ['read_text_file', read('slash/etc/hostname'), 'symlink_refused'],
      ['read_text_file', read(`slash${outsideFile(s)}`), 'symlink_refused'],
      ['write_text_file', write(`slash${outsideFile(s)}`), 'symlink_refused'],
      ['read_directory', read('slash'), 'symlink_refused'],
    ],
  },
  {
    name: 'a link to /proc/self/root and /proc/self/cwd',
    setup: (s) => (link(s, 'proc-root', '/proc/self/root'), link(s, 'proc-cwd', '/proc/self/cwd')),
    calls: (s) => [
      ['read_text_file', read(`proc-root${outsideFile(s)}`), 'symlink_refused'],
      ['write_text_file', write(`proc-root${outsideFile(s)}`), 'symlink_refused'],
      ['delete_directory', recursive(`proc-root${outsideDirectory(s)}`), 'symlink_refused'],
      ['read_directory', read('proc-cwd'), 'symlink_refused'],
    ],
  },
  {
    name: 'a link to the workspace root itself',
    setup: (s) => (link(s, 'again', s.root), tree(s, { 'f.txt': 'inside' })),
    calls: [
      ['read_text_file', read('again/f.txt'), 'symlink_refused'],
      ['delete_directory', recursive('again'), 'symlink_refused'],
    ],
    after: (s) => expect(readFileSync(s.at('f.txt'), 'utf8')).toBe('inside'),
  },
  {
    name: 'a link as a created parent of a write',
    setup: (s) => (mkdirSync(s.at('a')), link(s, 'a/b', outsideDirectory(s))),
    calls: [['write_text_file', write('a/b/c/d/new.txt'), 'symlink_refused'], ['write_directory', { path: 'a/b/c/d', parents: true }, 'symlink_refused']],
  },
  // Hard links.
  {
    name: 'a file hard-linked inside the workspace',
    setup: (s) => (tree(s, { 'one.txt': 'shared' }), linkSync(s.at('one.txt'), s.at('two.txt'))),
    calls: [
      ['read_text_file', read('one.txt'), 'hard_link_refused'],
      ['write_text_file', write('two.txt'), 'hard_link_refused'],
      ['write_text_file', write('two.txt', 'x', { overwrite: false }), 'already_exists'],
      ['delete_file', read('one.txt'), 'hard_link_refused'],
      ['create_object_from_file', { name: 'x', path: 'two.txt' }, 'hard_link_refused'],
    ],
    after: (s) => expect(readFileSync(s.at('one.txt'), 'utf8')).toBe('shared'),
  },
  {
    name: 'a file hard-linked to an outside file',
    setup: (s) => linkSync(outsideFile(s), s.at('twin.txt')),
    calls: [
      ['read_text_file', read('twin.txt'), 'hard_link_refused'],
      ['write_text_file', write('twin.txt'), 'hard_link_refused'],
      ['write_text_file', write('twin.txt', 'x', { expected_content_sha256: '0'.repeat(64) }), 'hard_link_refused'],
      ['delete_file', read('twin.txt'), 'hard_link_refused'],
      ['create_object_from_file', { name: 'loot', path: 'twin.txt' }, 'hard_link_refused'],
      ['read_directory', read('.'), (result) => expect(result.entries).toMatchObject([{ name: 'twin.txt', kind: 'file' }])],
    ],
  },
  // Special files.
  {
    name: 'a FIFO is never opened for I/O and never blocks',
    setup: (s) => void execFileSync('mkfifo', [s.at('pipe')]),
    calls: [
      ['read_text_file', read('pipe'), 'not_a_file'],
      ['write_text_file', write('pipe'), 'not_a_file'],
      ['write_text_file', write('pipe', 'x', { overwrite: false }), 'not_a_file'],
      ['delete_file', read('pipe'), 'not_a_file'],
      ['read_text_file', read('pipe/x'), 'not_a_directory'],
      ['create_object_from_file', { name: 'x', path: 'pipe' }, 'not_a_file'],
      ['read_directory', read('.'), (result) => expect(result.entries).toMatchObject([{ name: 'pipe', kind: 'other', size_bytes: null }])],
    ],
    after: (s) => expect(kindAt(s.at('pipe'))).toBe('other'),
  },
  {
    name: 'a Unix socket is kind other and never opened',
    setup: (s) => socketAt(s.at('sock')),
    calls: [
      ['read_text_file', read('sock'), 'not_a_file'],
      ['write_text_file', write('sock'), 'not_a_file'],
      ['delete_file', read('sock'), 'not_a_file'],
      ['read_directory', read('.'), (result) => expect(result.entries).toMatchObject([{ name: 'sock', kind: 'other' }])],
    ],
  },
  {
    name: 'a character device reached through a link is refused',
    setup: (s) => link(s, 'zero', '/dev/zero'),
    calls: [['read_text_file', read('zero'), 'symlink_refused']],
  },
  // .git aliases: refused lexically for every tool.
  ...GIT_ALIASES.map((alias) => ({
    name: `the .git alias ${JSON.stringify(alias)}`,
    setup: (s: Sandbox) => tree(s, { [`${alias.includes(':') || alias.includes('~') ? '.git' : alias}/config`]: 'secret config' }),
    calls: [
      ['read_text_file', read(`${alias}/config`), 'protected_path'],
      ['write_text_file', write(`${alias}/config`), 'protected_path'],
      ['write_directory', read(`${alias}/hooks`), 'protected_path'],
      ['delete_directory', recursive(alias), 'protected_path'],
      ['read_directory', read(alias), 'protected_path'],
      ['set_working_directory', read(`sub/../${alias}`), 'protected_path'],
    ] as AttackCall[],
  })),
  {
    name: 'ordinary names that look like .git',
    calls: [
      ['write_text_file', write('.gitignore'), 'ok'],
      ['write_text_file', write('.github/workflows/x.yml'), 'ok'],
      ['write_text_file', write('x.git'), 'ok'],
    ],
  },
  {
    name: 'a listing shows a .git entry',
    setup: (s) => tree(s, { '.git/HEAD': 'ref' }),
    calls: [['read_directory', read('.'), (result) => expect(result.entries).toMatchObject([{ name: '.git', kind: 'directory' }])]],
  },
  // Recursive deletes of hostile trees.
  {
    name: 'a recursive delete of a tree holding .git deep down changes nothing',
    setup: (s) => tree(s, { 'p/a.txt': 'a', 'p/q/b.txt': 'b', 'p/q/r/s/.git/HEAD': 'ref' }),
    calls: [['delete_directory', recursive('p'), { code: 'protected_path', effect: 'none' }]],
    after: (s) => expect(readFileSync(s.at('p/a.txt'), 'utf8')).toBe('a'),
  },
  {
    name: 'a recursive delete of a tree holding a .GIT file or a git~1 link changes nothing',
    setup: (s) => (tree(s, { 'p/a.txt': 'a', 'p/q/.GIT': 'file', 'r/a.txt': 'a' }), link(s, 'r/GIT~1', '.')),
    calls: [['delete_directory', recursive('p'), 'protected_path'], ['delete_directory', recursive('r'), 'protected_path']],
    after: (s) => (expect(existsSync(s.at('p/a.txt'))).toBe(true), expect(existsSync(s.at('r/a.txt'))).toBe(true)),
  },
  {
    name: 'a recursive delete unlinks links to outside directories and files without following them',
    setup: (s) => {
      tree(s, { 'p/keep/a.txt': 'a', 'p/b.txt': 'b' });
      link(s, 'p/dir-link', outsideDirectory(s));
      link(s, 'p/keep/file-link', outsideFile(s));
      link(s, 'p/keep/root-link', '/');
      link(s, 'p/proc-link', '/proc/self/root');
      link(s, 'p/dangling', 'nowhere');
      link(s, 'p/loop', 'loop');
    },
    calls: [['delete_directory', recursive('p'), (result) => expect(result).toEqual({ path: 'p', kind: 'directory', deleted: true, recursive: true })]],
    after: (s) => (expect(existsSync(s.at('p'))).toBe(false), expect(readFileSync(outsideFile(s), 'utf8')).toBe(OUTSIDE_CONTENT)),
  },
  {
    name: 'a recursive delete of a tree holding hard links to outside files leaves the outside bytes',
    setup: (s) => (tree(s, { 'p/a.txt': 'a' }), linkSync(outsideFile(s), s.at('p/twin.txt'))),
    calls: [['delete_directory', recursive('p'), 'ok']],
    after: (s) => (expect(existsSync(s.at('p'))).toBe(false), expect(lstatSync(outsideFile(s)).nlink).toBe(1)),
  },
  {
    name: 'a recursive delete of a tree holding FIFOs and sockets',
    setup: async (s) => (tree(s, { 'p/a.txt': 'a' }), execFileSync('mkfifo', [s.at('p/pipe')]), await socketAt(s.at('p/sock'))),
    calls: [['delete_directory', recursive('p'), 'ok']],
    after: (s) => expect(existsSync(s.at('p'))).toBe(false),
  },
  {
    name: 'a recursive delete whose target is a link to the outside directory',
    setup: (s) => link(s, 'p', outsideDirectory(s)),
    calls: [['delete_directory', recursive('p'), 'symlink_refused'], ['delete_directory', { path: 'p' }, 'symlink_refused']],
  },
  {
    name: 'the root cannot be deleted by any spelling',
    setup: (s) => tree(s, { 'a/f.txt': 'x' }),
    calls: [
      ['delete_directory', recursive('.'), 'root_refused'],
      ['delete_directory', recursive('a/..'), 'root_refused'],
      ['delete_directory', recursive(''), 'root_refused'],
      ['delete_file', read('.'), 'not_a_file'],
    ],
    after: (s) => expect(readFileSync(s.at('a/f.txt'), 'utf8')).toBe('x'),
  },
  {
    name: 'a file replaced through an expected hash never follows a link',
    setup: (s) => link(s, 'f.txt', outsideFile(s)),
    calls: [['write_text_file', write('f.txt', 'x', { expected_content_sha256: '0'.repeat(64) }), 'symlink_refused']],
  },
  {
    name: 'export of an Object through a link is refused',
    setup: (s) => (tree(s, { 'in.txt': 'inside' }), link(s, 'out', outsideDirectory(s))),
    calls: [
      ['create_object_from_file', { name: 'note', path: 'in.txt' }, 'ok'],
      ['write_object_to_file', { name: 'note', path: 'out/secret.txt' }, 'symlink_refused'],
      ['write_object_to_file', { name: 'note', path: 'out' }, 'symlink_refused'],
    ],
  },
];

describe('attacks through the tools on the local provider', () => {
  it('has at least 40 cases', () => expect(cases.length).toBeGreaterThanOrEqual(40));
  for (const attack of cases) {
    it(attack.name, () => runAttack(attack.setup ?? (() => undefined), attack.calls, attack.after));
  }
});
