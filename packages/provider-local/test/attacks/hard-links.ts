import { linkSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { read, write, tree, outsideFile, type AttackCase } from './attack-case.js';

// Hard links.
export const hardLinkAttacks: AttackCase[] = [
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
];
