import { expect } from 'vitest';
import { read, write, recursive, tree, GIT_ALIASES, type AttackCase } from './attack-case.js';
import type { Sandbox } from '../local-testbed.js';
import type { AttackCall } from '../tool-harness.js';

// .git aliases: refused lexically for every tool.
export const gitAliasAttacks: AttackCase[] = [
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
];
