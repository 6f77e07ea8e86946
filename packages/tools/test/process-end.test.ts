import { createMemfsProvider } from '@libos/provider-memfs';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';

async function runtimeWithFile() {
  const provider = createMemfsProvider();
  const runtime = await createRuntime({ provider });
  const writer = runtime.spawn();
  expect(await writer.call('write_text_file', { path: 'a.txt', content: 'kept' })).toMatchObject({ ok: true });
  return runtime;
}

describe('process.end()', () => {
  it('refuses every later call with denied, saying the process has ended, and changes nothing', async () => {
    const runtime = await runtimeWithFile();
    const process = runtime.spawn();
    await process.end();
    for (const [tool, args] of [
      ['get_working_directory', {}],
      ['write_text_file', { path: 'a.txt', content: 'changed' }],
    ] as const) {
      expect(await process.call(tool, args)).toEqual({
        ok: false,
        error: { code: 'denied', message: expect.stringMatching(/process has ended/u), effect: 'none', details: { process: process.id } },
      });
    }
    expect(await runtime.spawn().call('read_text_file', { path: 'a.txt' })).toMatchObject({ ok: true, result: { content: 'kept' } });
    await process.end();
    await runtime.close();
  });

  it('drops the process namespace and its Objects, and nothing of another process', async () => {
    const runtime = await runtimeWithFile();
    const ending = runtime.spawn();
    const staying = runtime.spawn();
    for (const process of [ending, staying]) {
      expect(await process.call('create_object_from_file', { name: 'note', path: 'a.txt' })).toMatchObject({ ok: true });
    }
    expect(await runtime.objects.listNamespaces()).toEqual(expect.arrayContaining([ending.namespace, staying.namespace]));
    expect((await runtime.objects.usage()).objects).toBe(2);
    await ending.end();
    expect(await runtime.objects.listNamespaces()).not.toContain(ending.namespace);
    expect(await runtime.objects.listNamespaces()).toContain(staying.namespace);
    expect((await runtime.objects.usage()).objects).toBe(1);
    await runtime.close();
  });

  it('lets the calls in flight finish before it drops the namespace', async () => {
    let approve: (() => void) | undefined;
    const runtime = await createRuntime({
      provider: createMemfsProvider(),
      config: { grants: [{ path: '.', tree: true, rights: ['read', 'write'], mode: 'ask' }] },
      approver: () => new Promise((resolve) => (approve = () => resolve('approve'))),
    });
    const process = runtime.spawn();
    const write = process.call('write_text_file', { path: 'b.txt', content: 'x' });
    await new Promise((resolve) => setImmediate(resolve));
    let ended = false;
    const end = process.end().then(() => (ended = true));
    expect(await process.call('get_working_directory', {})).toMatchObject({ ok: false, error: { code: 'denied' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(false);
    approve!();
    expect(await write).toMatchObject({ ok: true });
    await end;
    expect(await runtime.objects.listNamespaces()).not.toContain(process.namespace);
    await runtime.close();
  });

  it('leaves no namespace after a spawn refused for its cwd', async () => {
    const runtime = await runtimeWithFile();
    const before = (await runtime.objects.listNamespaces()).length;
    await expect(runtime.spawn({ cwd: 'missing' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(runtime.spawn({ cwd: 'a.txt' })).rejects.toMatchObject({ code: 'not_a_directory' });
    expect(await runtime.objects.listNamespaces()).toHaveLength(before);
    await runtime.close();
  });

  it('leaves nothing behind after 10,000 spawn-and-end cycles', async () => {
    const runtime = await runtimeWithFile();
    const namespacesBefore = await runtime.objects.listNamespaces();
    const usageBefore = await runtime.objects.usage();
    for (let cycle = 0; cycle < 10_000; cycle += 1) {
      const process = cycle % 2 === 0 ? runtime.spawn() : await runtime.spawn({ cwd: '.' });
      // Every hundredth process holds an Object when it ends.
      if (cycle % 100 === 0) expect(await process.call('create_object_from_file', { name: 'n', path: 'a.txt' })).toMatchObject({ ok: true });
      await process.end();
    }
    expect(await runtime.objects.listNamespaces()).toEqual(namespacesBefore);
    expect(await runtime.objects.usage()).toEqual(usageBefore);
    await runtime.close();
  }, 120_000);
});
