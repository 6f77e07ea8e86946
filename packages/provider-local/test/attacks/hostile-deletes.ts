import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { OUTSIDE_CONTENT } from '../local-testbed.js';
import { read, write, recursive, tree, link, outsideFile, outsideDirectory, socketAt, type AttackCase } from './attack-case.js';

// Recursive deletes of hostile trees.
export const hostileDeleteAttacks: AttackCase[] = [
  {
    name: 'a recursive delete of a tree holding .git deep down changes nothing',
    setup: (s) => tree(s, { 'p/a.txt': 'a', 'p/q/b.txt': 'b', 'p/q/r/s/.git/HEAD': 'ref' }),
    calls: [['delete_directory', recursive('p'), { code: 'protected_path', effect: 'none' }]],
    after: (s) => expect(readFileSync(s.at('p/a.txt'), 'utf8')).toBe('a'),
  },
  {
    name: 'a recursive delete of a tree holding a .GIT file or a git~1 link changes nothing',
    setup: (s) => (tree(s, { 'p/a.txt': 'a', 'p/q/.GIT': 'file', 'r/a.txt': 'a' }), link(s, 'r/GIT~1', '.')),
    calls: [
      ['delete_directory', recursive('p'), 'protected_path'],
      ['delete_directory', recursive('r'), 'protected_path'],
    ],
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
    calls: [
      ['delete_directory', recursive('p'), (result) => expect(result).toEqual({ path: 'p', kind: 'directory', deleted: true, recursive: true })],
    ],
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
    calls: [
      ['delete_directory', recursive('p'), 'symlink_refused'],
      ['delete_directory', { path: 'p' }, 'symlink_refused'],
    ],
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
