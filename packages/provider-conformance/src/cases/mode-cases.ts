import { expect } from 'vitest';
import { sha256Hex, utf8 } from '../case-context.js';
import { defineCase } from '../conformance-case.js';
import type { CaseContext, ConformanceCase } from '../conformance-case.js';
import { text, yieldTurn } from './case-helpers.js';

const group = 'write modes';
const big = new Uint8Array(512 * 1024).fill(0x4b);

/** The mode the provider shows for `file`, by its fixtures and by `stat` when it reports one; both must agree. */
async function modeOf(context: CaseContext, file: string): Promise<number> {
  const modes = context.fixtures.modes;
  if (modes === undefined) throw new Error('The case requires the modes fixture.');
  const seen = (await modes.get(file)) & 0o777;
  const status = await context.provider.stat(context.path(file));
  if (typeof status.mode === 'number') expect(status.mode.toString(8)).toBe(seen.toString(8));
  return seen;
}

/**
 * `writeFile`'s `mode`: the file ends with exactly those permission bits, created or replaced, and
 * is never seen with other bits; a mode that is not permission bits changes nothing.
 */
export const modeCases: readonly ConformanceCase[] = [
  defineCase(
    group,
    'a new file gets exactly the mode given, whatever the default',
    async (context) => {
      const { provider, path } = context;
      for (const [index, mode] of [0o600, 0o640, 0o751, 0o400, 0o777].entries()) {
        const options = index % 2 === 0 ? { overwrite: false, mode } : { overwrite: true, expectedSha256: 'missing', mode };
        expect(await provider.writeFile(path(`d/${index}`), utf8(`bytes ${index}`), options)).toEqual({ created: true });
        expect((await modeOf(context, `d/${index}`)).toString(8)).toBe(mode.toString(8));
        expect(text(await context.fixtures.readFile(`d/${index}`))).toBe(`bytes ${index}`);
      }
    },
    { fixtures: ['modes'] },
  ),
  defineCase(
    group,
    'a replaced file ends with the mode given, narrower or wider, plain or guarded',
    async (context) => {
      const { provider, fixtures, path } = context;
      const modes = fixtures.modes!;
      await fixtures.writeFile('f', 'old');
      await modes.set('f', 0o644);
      expect(await provider.writeFile(path('f'), utf8('secret'), { overwrite: true, mode: 0o600 })).toEqual({ created: false });
      expect((await modeOf(context, 'f')).toString(8)).toBe('600');
      await provider.writeFile(path('f'), utf8('shared'), { overwrite: true, expectedSha256: sha256Hex('secret'), mode: 0o664 });
      expect((await modeOf(context, 'f')).toString(8)).toBe('664');
      expect(text(await fixtures.readFile('f'))).toBe('shared');
      // Without a mode the file keeps the one it has.
      await provider.writeFile(path('f'), utf8('again'), { overwrite: true });
      expect((await modeOf(context, 'f')).toString(8)).toBe('664');
    },
    { fixtures: ['modes'] },
  ),
  defineCase(
    group,
    'a new file with a narrow mode is never seen with wider bits while it is written',
    async (context) => {
      const { provider, fixtures, path } = context;
      const modes = fixtures.modes!;
      for (let round = 0; round < 4; round++) {
        const file = `k/${round}`;
        let done = false;
        const watcher = (async () => {
          while (!done) {
            // Only a name that holds a file has a mode to show; it never goes away once made.
            if ((await fixtures.kindOf(file)) === 'file') {
              const mode = (await modes.get(file)) & 0o777;
              if (mode !== 0o600) throw new Error(`'${file}' was seen with mode ${mode.toString(8)} while it was written with 600.`);
            }
            await yieldTurn();
          }
        })();
        // Awaited below; until then a rejection must not count as unhandled.
        watcher.catch(() => undefined);
        try {
          await yieldTurn();
          await provider.writeFile(path(file), big, { overwrite: round % 2 === 0, mode: 0o600 });
        } finally {
          done = true;
        }
        await watcher;
        expect((await modeOf(context, file)).toString(8)).toBe('600');
      }
    },
    { fixtures: ['modes'] },
  ),
  defineCase(group, 'a mode that is not permission bits is invalid_arguments and changes nothing', async (context) => {
    const { provider, fixtures, path } = context;
    await fixtures.writeFile('kept', 'kept');
    for (const mode of [0o4755, 0o2700, 0o1777, 0o1000, -1, 1.5, Number.NaN, 0o7777 + 1]) {
      for (const file of ['kept', 'new/file']) {
        const error = await context.expectError(
          () => provider.writeFile(path(file), utf8('changed'), { overwrite: true, mode }),
          'invalid_arguments',
        );
        expect(error.details).toMatchObject({ option: 'mode' });
      }
    }
    expect(text(await fixtures.readFile('kept'))).toBe('kept');
    expect(await fixtures.kindOf('new')).toBe('missing');
  }),
];
