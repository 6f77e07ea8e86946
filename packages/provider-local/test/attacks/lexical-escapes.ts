import { existsSync, mkdirSync } from 'node:fs';
import { expect } from 'vitest';
import { read, write, recursive, tree, link, outsideFile, outsideDirectory, type AttackCase } from './attack-case.js';

// Lexical escapes: refused before any filesystem access.
export const lexicalEscapeAttacks: AttackCase[] = [
  { name: '.. climbing out of the root', calls: [['read_text_file', read('../outside/secret.txt'), 'outside_workspace']] },
  {
    name: '.. climbing out from a subdirectory',
    setup: (s) => mkdirSync(s.at('a')),
    calls: [['read_text_file', read('a/../../outside/secret.txt'), 'outside_workspace']],
  },
  { name: '.. in a write target', calls: [['write_text_file', write('../outside/secret.txt'), 'outside_workspace']] },
  { name: '.. in a recursive delete', calls: [['delete_directory', recursive('../outside'), 'outside_workspace']] },
  { name: '.. as the new working directory', calls: [['set_working_directory', read('..'), 'outside_workspace']] },
  {
    name: 'an absolute host path',
    calls: (s) => [
      ['read_text_file', read(outsideFile(s)), 'invalid_path'],
      ['write_text_file', write(outsideFile(s)), 'invalid_path'],
    ],
  },
  { name: 'a // path', calls: [['read_text_file', read('//etc/passwd'), 'invalid_path']] },
  {
    name: 'a NUL byte',
    calls: [
      ['read_text_file', read('a\0b'), 'invalid_path'],
      ['write_text_file', write('x\0/../../outside/secret.txt'), 'invalid_path'],
    ],
  },
  {
    name: 'a component over 255 bytes',
    calls: [
      ['write_text_file', write('é'.repeat(128)), 'invalid_path'],
      ['write_text_file', write('x'.repeat(255)), 'ok'],
    ],
  },
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
];
