import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { BUILTIN_TOOLS, createRuntime, type ToolCallInput } from '../src/index.js';
import { countLines } from './support/count-lines-tool.js';

// These tests are checked by `tsc` (pnpm typecheck): each @ts-expect-error fails the build if the
// line it guards ever compiles, so the typing of process.call cannot silently become `any`.
describe('process.call types', () => {
  it('types the input and result of a built-in tool from its schemas', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    await fixtures.writeFile('README.md', 'hello');
    const runtime = await createRuntime({ provider });
    const process = runtime.spawn();
    const outcome = await process.call('read_text_file', { path: 'README.md', max_bytes: 4096 });
    if (!outcome.ok) expect.fail(outcome.error.message);
    expectTypeOf(outcome.result.content).toEqualTypeOf<string>();
    expectTypeOf(outcome.result.content_sha256).toEqualTypeOf<string | null>();
    expect(outcome.result.content.toUpperCase()).toBe('HELLO');

    const listing = await process.call('read_directory', { path: '.' });
    if (listing.ok) expectTypeOf(listing.result.entries[0]?.kind).toEqualTypeOf<'file' | 'directory' | 'symlink' | 'other' | undefined>();
    const where = await process.call('get_working_directory');
    if (where.ok) expectTypeOf(where.result.working_directory).toEqualTypeOf<string>();

    expectTypeOf<ToolCallInput<typeof BUILTIN_TOOLS, 'write_text_file'>>().toMatchTypeOf<{ path: string; content: string }>();
    // @ts-expect-error max_bytes is a number
    await process.call('read_text_file', { path: 'README.md', max_bytes: '5' });
    // @ts-expect-error unknown field
    await process.call('read_text_file', { path: 'README.md', bogus: true });
    // @ts-expect-error path is required
    await process.call('read_text_file', {});
    // @ts-expect-error the arguments are required when a field is
    await process.call('read_text_file');
  });

  it('types a user tool added with createRuntime({ tools }), and leaves a dynamic name unknown', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    await fixtures.writeFile('a.txt', 'x\ny\n');
    const runtime = await createRuntime({ provider, tools: [...BUILTIN_TOOLS, countLines] });
    const process = runtime.spawn();
    const counted = await process.call('count_lines', { path: 'a.txt' });
    if (!counted.ok) expect.fail(counted.error.message);
    expectTypeOf(counted.result.lines).toEqualTypeOf<number>();
    expect(counted.result.lines).toBe(2);
    // @ts-expect-error path must be a string
    await process.call('count_lines', { path: 1 });

    const child = await process.spawn({ cwd: '.' });
    const again = await child.call('count_lines', { path: 'a.txt' });
    if (again.ok) expectTypeOf(again.result.truncated).toEqualTypeOf<boolean>();

    const name: string = 'count_lines';
    const dynamic = await process.call(name, { anything: 'goes, checked at run time' });
    if (dynamic.ok) expectTypeOf(dynamic.result).toEqualTypeOf<Record<string, unknown>>();
    expect(dynamic).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
  });
});
