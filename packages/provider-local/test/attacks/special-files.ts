import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import { kindAt } from '../local-testbed.js';
import { read, write, link, socketAt, type AttackCase } from './attack-case.js';

// Special files.
export const specialFileAttacks: AttackCase[] = [
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
];
