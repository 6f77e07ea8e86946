import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../src/index.js';
import { assertContractResult, createTestbed, text, type Testbed } from './support/harness.js';

// Plain strings: these properties call with names and arguments drawn at random, so run-time checks are what is under test.
const TOOL_NAMES: readonly string[] = BUILTIN_TOOLS.map((tool) => tool.name);
const ARGUMENT_CODES = ['invalid_arguments', 'arguments_too_large', 'invalid_path', 'unsupported_encoding', 'encode_failed', 'unknown_tool'];

const segment = fc.constantFrom(
  'a',
  'b',
  'file.txt',
  'dir',
  'link',
  'twin',
  'pipe',
  '.',
  '..',
  '',
  '.git',
  '.GIT.',
  'git~1',
  'é',
  '\\',
  ' ',
  'x:y',
  '\u0000',
  'n'.repeat(256),
);
const pathLike = fc.oneof(
  fc.array(segment, { maxLength: 5 }).map((parts) => parts.join('/')),
  fc.array(segment, { maxLength: 3 }).map((parts) => `/${parts.join('/')}`),
  fc.string({ unit: 'binary' }),
);
const value = fc.oneof(fc.jsonValue(), pathLike, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const knownField = fc.constantFrom(
  'path',
  'content',
  'encoding',
  'limit',
  'max_bytes',
  'overwrite',
  'expected_content_sha256',
  'parents',
  'exist_ok',
  'missing_ok',
  'recursive',
);
const plausibleArgs = fc.record(
  {
    path: pathLike,
    content: fc.oneof(fc.string({ unit: 'binary' }), value),
    encoding: fc.oneof(fc.constantFrom('utf-8', 'UTF8', 'latin-1', 'utf-16', 'ebcdic', ''), value),
    limit: fc.oneof(fc.integer({ min: -2, max: 12_000 }), value),
    max_bytes: fc.oneof(fc.integer({ min: -2, max: 2_000_000 }), value),
    overwrite: fc.oneof(fc.boolean(), value),
    expected_content_sha256: fc.oneof(fc.constantFrom('missing', 'e'.repeat(64)), fc.stringMatching(/^[0-9a-f]{64}$/), value),
    parents: fc.oneof(fc.boolean(), value),
    exist_ok: fc.oneof(fc.boolean(), value),
    missing_ok: fc.oneof(fc.boolean(), value),
    recursive: fc.oneof(fc.boolean(), value),
  },
  { requiredKeys: [] },
);
const anyArgs = fc.oneof(
  plausibleArgs,
  plausibleArgs.chain((args) => fc.record({ extra: value }).map((extra) => ({ ...args, ...extra }))),
  fc.dictionary(fc.oneof(knownField, fc.string()), value),
  fc.jsonValue(),
);

async function seeded(): Promise<Testbed> {
  const bed = await createTestbed({ config: { bounds: { arguments_max_bytes: 4096, result_max_bytes: 65_536 } } });
  await bed.fixtures.writeFile('file.txt', 'hello');
  await bed.fixtures.writeFile('a/b/file.txt', 'deep');
  await bed.fixtures.writeFile('bad.bin', new Uint8Array([0xff, 0xfe, 0x00]));
  await bed.fixtures.makeDirectory('dir');
  await bed.fixtures.symlink('link', 'a');
  await bed.fixtures.symlink('a/link', bed.fixtures.outside.directoryTarget('a'));
  await bed.fixtures.hardLink('file.txt', 'twin');
  await bed.fixtures.fifo('pipe');
  await bed.fixtures.writeFile('.git/HEAD', 'ref: main');
  return bed;
}

describe('random calls', () => {
  it('always answer with a contract result and never throw', async () => {
    const bed = await seeded();
    const outsideBefore = await bed.fixtures.outside.fingerprint();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...TOOL_NAMES), fc.string()), anyArgs, async (name, args) => {
        const process = bed.runtime.spawn();
        const outcome = await process.call(name, args);
        assertContractResult(bed.runtime, name, outcome);
        if (!outcome.ok && ARGUMENT_CODES.includes(outcome.error.code)) expect(outcome.error.effect).toBe('none');
        if (!TOOL_NAMES.includes(name))
          expect(outcome).toMatchObject({ ok: false, error: { code: expect.stringMatching(/unknown_tool|arguments_too_large/) } });
      }),
      { numRuns: 800 },
    );
    expect(await bed.fixtures.outside.fingerprint()).toBe(outsideBefore);
    expect(text(await bed.fixtures.readFile('.git/HEAD'))).toBe('ref: main');
    expect(await bed.fixtures.kindOf('link')).toBe('symlink');
  });

  it('keep a process usable after any sequence of calls', async () => {
    const bed = await seeded();
    const step = fc.tuple(fc.constantFrom(...TOOL_NAMES), plausibleArgs);
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        const process = bed.runtime.spawn();
        for (const [name, args] of steps) {
          const outcome = await process.call(name, args);
          assertContractResult(bed.runtime, name, outcome);
        }
        const where = await process.call('get_working_directory', {});
        expect(where.ok).toBe(true);
        if (where.ok) expect(where.result.working_directory).toBe(process.cwd);
      }),
      { numRuns: 150 },
    );
    expect(text(await bed.fixtures.readFile('.git/HEAD'))).toBe('ref: main');
  });
});
