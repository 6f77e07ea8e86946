import { createHash } from 'node:crypto';
import { resolveWorkspacePath, ROOT_PATH, type FileSystemProviderV1 } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { describe, expect, it } from 'vitest';
import { auditedRuntime, callRecordsOf, openLog } from './support.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

// Every call sees its own view of one watching provider made once per provider: these hold that
// view to what a wrapper made per call guaranteed.
describe("a call's view of the watched provider", () => {
  it('gives each of many concurrent calls exactly its own changes, interleaved as they are', async () => {
    const log = await openLog();
    const runtime = await auditedRuntime(log, {
      files: Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`old-${index}.txt`, `old ${index}`])),
    });
    const agent = runtime.spawn();
    // Writes, appends, moves and deletes in flight together: each awaits the provider between the
    // "before" it observes and the change, so their steps interleave on the shared watcher.
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => {
        switch (index % 4) {
          case 0:
            return agent.call('write_text_file', { path: `old-${index}.txt`, content: `new ${index}` });
          case 1:
            return agent.call('append_text_file', { path: `old-${index}.txt`, content: '+' });
          case 2:
            return agent.call('move_file', { from: `old-${index}.txt`, to: `moved-${index}.txt` });
          default:
            return agent.call('delete_file', { path: `old-${index}.txt` });
        }
      }),
    );
    expect(answers.every((answer) => answer.ok)).toBe(true);
    await runtime.close();
    await log.close();
    const records = callRecordsOf(log.path);
    expect(records).toHaveLength(40);
    for (const record of records) {
      const index = Number(/old-(\d+)/.exec(record.paths[0]!)![1]);
      const before = sha(`old ${index}`);
      const expected = [
        [{ path: `old-${index}.txt`, before_sha256: before, after_sha256: sha(`new ${index}`) }],
        [{ path: `old-${index}.txt`, before_sha256: before, after_sha256: sha(`old ${index}+`) }],
        [
          { path: `old-${index}.txt`, before_sha256: before, after_sha256: null },
          { path: `moved-${index}.txt`, before_sha256: null, after_sha256: before },
        ],
        [{ path: `old-${index}.txt`, before_sha256: before, after_sha256: null }],
      ][index % 4];
      expect(record.effects).toMatchObject(expected!);
    }
  });

  it('has exactly the methods of the provider it watches, and a changing method called off its view changes nothing', async () => {
    const log = await openLog();
    const session = await log.openSession({ provider: 'memfs' });
    const provider = createMemfsProvider();
    const { searchTree: _left, ...withoutSearch } = provider;
    const lacking = withoutSearch as FileSystemProviderV1;
    const call = session.begin({ process: 'pid_0000000000000000', tool: 'write_text_file', arguments: {} });
    const view = call.watch(lacking);
    // An optional method the provider lacks stays absent; the rest are there, name and capabilities too.
    expect(view.searchTree).toBeUndefined();
    expect(view.name).toBe(provider.name);
    expect(view.capabilities).toBe(provider.capabilities);
    const path = resolveWorkspacePath(ROOT_PATH, 'taken.txt');
    const { writeFile } = view;
    expect(() => writeFile(path, new Uint8Array([1]), { overwrite: true })).toThrow(TypeError);
    expect((await provider.stat(path)).kind).toBe('missing');
    // Through the view the same write lands and is noted.
    await view.writeFile(path, new Uint8Array([1]), { overwrite: true });
    await call.finish({ ok: true, result: {} });
    await session.end();
    await log.close();
    expect(callRecordsOf(log.path)[0]!.effects).toEqual([{ path: 'taken.txt', before_sha256: null, after_sha256: sha('\u0001'), size_bytes: 1 }]);
  });
});
