import { createHash } from 'node:crypto';
import { ROOT_PATH, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import type { Runtime } from '@libos/tools';
import fc from 'fast-check';

const PATHS = ['a', 'b', 'a/b', 'a/b/c.txt', 'd', 'd/e.txt', 'x.txt', '.', '.git', 'a/.GIT', '../x', 'é 😀', 'a/b/../x.txt', 'x.txt/y'];
const CONTENTS = ['', 'hello', 'hello\nworld\n', 'é€😀\n', 'line\n'.repeat(700)];
const HASHES = ['missing', ...CONTENTS.map((content) => createHash('sha256').update(content).digest('hex'))];

// Mostly a few file names, so calls collide and later calls find what earlier ones made.
const path = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('x.txt', 'a/b/c.txt', 'd/e.txt') },
  { weight: 2, arbitrary: fc.constantFrom(...PATHS) },
);
const flag = fc.boolean();
// Absent twice as often as present, so most calls take the defaults.
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

/** One tool call of a generated script: a tool and arguments drawn from small, colliding sets. */
export type ToolCall = readonly [name: string, args: Record<string, unknown>];

const call = (name: string, args: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<ToolCall> =>
  args.map((value) => [name, dropUndefined(value)] as const);

/** Calls of every built-in tool, most of them valid, many colliding on the same few names. */
export const toolCall: fc.Arbitrary<ToolCall> = fc.oneof(
  {
    weight: 4,
    arbitrary: call(
      'write_text_file',
      fc.record({
        path,
        content: fc.oneof({ weight: 2, arbitrary: fc.constant('hello\nworld\n') }, { weight: 3, arbitrary: fc.constantFrom(...CONTENTS) }),
        overwrite: optional(flag),
        expected_content_sha256: optional(fc.constantFrom(...HASHES)),
      }),
    ),
  },
  { weight: 3, arbitrary: call('read_text_file', fc.record({ path, max_bytes: optional(fc.constantFrom(1, 5, 4000, 100_000)) })) },
  // Line ranges and tails read through readFileRange.
  {
    weight: 1,
    arbitrary: call(
      'read_text_file',
      fc.oneof(
        fc.record({ path, start_line: fc.constantFrom(1, 2, 300, 701), max_bytes: optional(fc.constantFrom(5, 4000)) }),
        fc.record({ path, tail_lines: fc.constantFrom(1, 2, 50, 1000), max_bytes: optional(fc.constantFrom(5, 4000)) }),
      ),
    ),
  },
  {
    weight: 2,
    arbitrary: call(
      'append_text_file',
      fc.record({
        path,
        content: fc.constantFrom(...CONTENTS),
        create: optional(flag),
        expected_size_bytes: optional(fc.constantFrom(0, 5, 12, 17)),
        encoding: optional(fc.constantFrom('utf-8', 'utf-8-sig')),
      }),
    ),
  },
  { weight: 2, arbitrary: call('copy_file', fc.record({ from: path, to: path, overwrite: optional(flag) })) },
  { weight: 2, arbitrary: call('read_directory', fc.record({ path, limit: optional(fc.constantFrom(1, 2, 100)) })) },
  { weight: 2, arbitrary: call('write_directory', fc.record({ path, parents: optional(flag), exist_ok: optional(flag) })) },
  { weight: 2, arbitrary: call('delete_file', fc.record({ path, missing_ok: optional(flag) })) },
  { weight: 2, arbitrary: call('delete_directory', fc.record({ path, recursive: optional(flag), missing_ok: optional(flag) })) },
  { weight: 2, arbitrary: call('move_file', fc.record({ from: path, to: path, overwrite: optional(flag) })) },
  {
    weight: 2,
    arbitrary: call(
      'edit_text_file',
      fc.record({
        path,
        edits: fc
          .array(
            fc.record({
              old_text: fc.constantFrom('hello', 'hello', 'world', 'line', '€'),
              new_text: fc.constantFrom('bye', '', 'é'),
              replace_all: optional(flag),
            }),
            { minLength: 1, maxLength: 1 },
          )
          .map((edits) => edits.map(dropUndefined)),
        expected_content_sha256: optional(fc.constantFrom(...HASHES)),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: call(
      'search_files',
      fc.record({ path, query: fc.constantFrom('hello', 'line', 'é', 'nothing'), max_results: optional(fc.constantFrom(1, 100)) }),
    ),
  },
  { weight: 2, arbitrary: call('set_working_directory', fc.record({ path })) },
  { weight: 1, arbitrary: call('get_working_directory', fc.constant({})) },
  { weight: 1, arbitrary: call('create_object_from_file', fc.record({ name: fc.constantFrom('n1', 'n2'), path })) },
  { weight: 1, arbitrary: call('write_object_to_file', fc.record({ name: fc.constantFrom('n1', 'n2'), path, overwrite: optional(flag) })) },
);

function dropUndefined<T extends Record<string, unknown>>(value: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));
}

/**
 * A result with what may differ between providers and runs taken out: `modified_at`, Object ids and
 * process ids (docs/rules.md: the same calls give the same results on every provider but for those).
 */
export function comparable(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, field) => (key === 'modified_at' || key === 'oid' ? '<varies>' : field)).replace(/pid_[0-9a-f]{16}/g, 'pid_<varies>'),
  );
}

/** What every script starts with, so later calls find files and an Object to work on. */
export const PRELUDE: readonly ToolCall[] = [
  ['write_text_file', { path: 'x.txt', content: 'hello\nworld\n' }],
  ['write_text_file', { path: 'a/b/c.txt', content: 'line\n' }],
  ['create_object_from_file', { name: 'n1', path: 'x.txt' }],
];

/** Runs `script` on a fresh process of `runtime`; returns each comparable result. */
export async function runScript(runtime: Runtime, script: readonly ToolCall[]): Promise<unknown[]> {
  const process = runtime.spawn();
  const results: unknown[] = [];
  for (const [name, args] of script) results.push(comparable(await process.call(name, args)));
  return results;
}

/** Every name, kind and byte of a provider's tree, in code-point order, for comparing two trees. */
export async function treeOf(provider: FileSystemProviderV1, at: WorkspacePath = ROOT_PATH): Promise<string[]> {
  const lines: string[] = [];
  const listing = await provider.listDirectory(at, { limit: 10_000 });
  for (const entry of listing.entries) {
    if (entry.kind === 'directory') {
      lines.push(`${entry.path}/`);
      lines.push(...(await treeOf(provider, entry.path)));
    } else {
      const read = await provider.readFile(entry.path, { maxBytes: 1 << 20 });
      lines.push(`${entry.path} ${createHash('sha256').update(read.bytes).digest('hex')}`);
    }
  }
  return lines;
}
