import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { kindAt } from '../local-testbed.js';
import { read, write, recursive, tree, link, outsideFile, outsideDirectory, type AttackCase } from './attack-case.js';

// Symbolic links at every position.
export const symlinkAttacks: AttackCase[] = [
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
    calls: [
      ['write_text_file', write('a/b/c/d/new.txt'), 'symlink_refused'],
      ['write_directory', { path: 'a/b/c/d', parents: true }, 'symlink_refused'],
    ],
  },
];
