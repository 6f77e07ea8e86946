import { afterAll, describe, expect, it } from 'vitest';
import { closeSockets } from './attacks/attack-case.js';
import { gitAliasAttacks } from './attacks/git-aliases.js';
import { hardLinkAttacks } from './attacks/hard-links.js';
import { hostileDeleteAttacks } from './attacks/hostile-deletes.js';
import { lexicalEscapeAttacks } from './attacks/lexical-escapes.js';
import { specialFileAttacks } from './attacks/special-files.js';
import { symlinkAttacks } from './attacks/symlinks.js';
import { runAttack } from './tool-harness.js';

// Each case builds a hostile workspace beside an `outside/` directory (secret.txt and
// directory/secret.txt hold OUTSIDE), then attacks through the tools. The harness checks after
// every call that `outside/` is byte-for-byte unchanged and that no result leaks its bytes or a host path.
const groups = {
  'lexical escapes': lexicalEscapeAttacks,
  'symbolic links at every position': symlinkAttacks,
  'hard links': hardLinkAttacks,
  'special files': specialFileAttacks,
  '.git aliases': gitAliasAttacks,
  'recursive deletes of hostile trees': hostileDeleteAttacks,
};

afterAll(closeSockets);

describe('attacks through the tools on the local provider', () => {
  it('has at least 40 cases', () => expect(Object.values(groups).flat().length).toBeGreaterThanOrEqual(40));
  // Both ways of naming entries: /proc/self/fd paths, and names inside a borrowed working directory.
  for (const borrowWorkingDirectory of [false, true]) {
    describe(borrowWorkingDirectory ? 'borrowing the working directory' : 'through /proc/self/fd', () => {
      for (const [group, attacks] of Object.entries(groups)) {
        describe(group, () => {
          for (const attack of attacks) {
            it(attack.name, () => runAttack(attack.setup ?? (() => undefined), attack.calls, attack.after, { borrowWorkingDirectory }));
          }
        });
      }
    });
  }
});
