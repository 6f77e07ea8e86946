import { createMemfsProvider } from '@libos/provider-memfs';
import { BUILTIN_TOOLS, createRuntime } from '@libos/tools';
import fc from 'fast-check';
import { expect, it, onTestFinished } from 'vitest';
import { testProvider, describePostgres } from './postgres.js';
import { PRELUDE, runScript, toolCall, treeOf } from './tool-calls.js';

// Generated scripts of 8 to 33 calls; 60 of them take about 15 s on a loaded machine.
const RUNS = 60;
const SERVED_TOOLS = BUILTIN_TOOLS.map((each) => each.name).sort();

describePostgres('the tools on the postgres provider', () => {
  it('runs every built-in tool as on disk', async () => {
    const runtime = await createRuntime({ provider: testProvider() });
    onTestFinished(() => runtime.close());
    const agent = runtime.spawn();
    const ok = async (name: string, args: Record<string, unknown>) => {
      const outcome = await agent.call(name, args);
      if (!outcome.ok) throw new Error(`${name} failed: ${JSON.stringify(outcome.error)}`);
      return outcome.result as Record<string, unknown>;
    };
    const used = new Set<string>();
    const tool = async (name: string, args: Record<string, unknown>) => {
      used.add(name);
      return ok(name, args);
    };
    expect(await tool('write_directory', { path: 'src/lib' })).toEqual({ path: 'src/lib', created: true });
    expect(await tool('write_text_file', { path: 'src/lib/a.txt', content: 'hello\nworld\n' })).toEqual({
      path: 'src/lib/a.txt',
      bytes_written: 12,
      created: true,
    });
    expect(await tool('set_working_directory', { path: 'src' })).toEqual({ working_directory: 'src' });
    expect(await tool('get_working_directory', {})).toEqual({ working_directory: 'src' });
    expect(await tool('read_text_file', { path: 'lib/a.txt', max_bytes: 5 })).toMatchObject({ content: 'hello', truncated: true, bytes_read: 5 });
    expect(await tool('append_text_file', { path: 'lib/a.txt', content: 'again\n', expected_size_bytes: 12 })).toEqual({
      path: 'src/lib/a.txt',
      bytes_appended: 6,
      size_bytes: 18,
      created: false,
    });
    expect(await tool('read_text_file', { path: 'lib/a.txt', tail_lines: 1 })).toMatchObject({ content: 'again\n', start_line: 3, end_line: 3 });
    expect(await tool('copy_file', { from: 'lib/a.txt', to: 'lib/copy/a.txt' })).toEqual({
      from: 'src/lib/a.txt',
      to: 'src/lib/copy/a.txt',
      bytes_copied: 18,
      replaced: false,
    });
    expect(await tool('read_text_file', { path: 'lib/copy/a.txt' })).toMatchObject({ content: 'hello\nworld\nagain\n' });
    expect(await tool('delete_directory', { path: 'lib/copy', recursive: true })).toMatchObject({ deleted: true });
    expect(await tool('edit_text_file', { path: 'lib/a.txt', edits: [{ old_text: 'world', new_text: 'there' }] })).toMatchObject({
      replacements: 1,
    });
    expect(await tool('search_files', { path: '.', query: 'there' })).toMatchObject({
      matches: [{ path: 'src/lib/a.txt', line: 2, column: 1, text: 'there' }],
      count: 1,
    });
    expect(await tool('read_directory', { path: 'lib' })).toMatchObject({
      entries: [{ name: 'a.txt', path: 'src/lib/a.txt', kind: 'file', size_bytes: 18 }],
      truncated: false,
    });
    expect(await tool('move_file', { from: 'lib/a.txt', to: 'lib/b.txt' })).toEqual({ from: 'src/lib/a.txt', to: 'src/lib/b.txt', replaced: false });
    expect(await tool('create_object_from_file', { name: 'note', path: 'lib/b.txt' })).toMatchObject({ name: 'note', bytes_read: 18 });
    expect(await tool('write_object_to_file', { name: 'note', path: 'copy.txt' })).toMatchObject({
      path: 'src/copy.txt',
      bytes_written: 18,
      created: true,
    });
    expect(await tool('delete_file', { path: 'copy.txt' })).toEqual({ path: 'src/copy.txt', kind: 'file', deleted: true, recursive: false });
    expect(await tool('delete_directory', { path: 'lib', recursive: true })).toEqual({
      path: 'src/lib',
      kind: 'directory',
      deleted: true,
      recursive: true,
    });
    expect(await tool('find_files', { path: '.', glob: '**' })).toMatchObject({ count: 0 });
    expect(await tool('apply_patch', { patch: '*** Begin Patch\n*** Add File: pic.gif\n+GIF89a image\n*** End Patch' })).toMatchObject({
      files: [{ path: 'src/pic.gif', operation: 'add' }],
    });
    expect(await tool('read_media_file', { path: 'pic.gif' })).toMatchObject({ path: 'src/pic.gif', mime_type: 'image/gif' });
    expect([...used].sort()).toEqual(SERVED_TOOLS);
  });

  it('gives the same results as memfs for the same generated script of calls', async () => {
    const succeeded = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(toolCall, { minLength: 5, maxLength: 40 }), async (generated) => {
        const script = [...PRELUDE, ...generated];
        const memfs = createMemfsProvider();
        const postgres = testProvider();
        const [onMemfs, onPostgres] = await Promise.all([createRuntime({ provider: memfs }), createRuntime({ provider: postgres })]);
        try {
          const [expected, actual] = await Promise.all([runScript(onMemfs, script), runScript(onPostgres, script)]);
          for (let index = 0; index < script.length; index++) {
            expect(actual[index], `call ${index}: ${JSON.stringify(script[index])}`).toEqual(expected[index]);
            if (index >= PRELUDE.length && (actual[index] as { ok: boolean }).ok) succeeded.add(script[index]?.[0] ?? '');
          }
          expect(await treeOf(postgres)).toEqual(await treeOf(memfs));
        } finally {
          await Promise.all([onMemfs.close(), onPostgres.close()]);
        }
      }),
      { numRuns: RUNS, seed: 20261201 },
    );
    // The scripts reached every tool's success path, not only its refusals.
    expect([...succeeded].sort()).toEqual(SERVED_TOOLS.filter((name) => name !== 'find_files'));
  });
});
