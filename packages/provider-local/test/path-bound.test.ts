import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createRuntime } from '@libos/tools';
import { createLocalTestbed, trackTestbeds } from './local-testbed.js';

// Through the tools, no cwd or tree can grow past what the tools can address: the joined
// canonical path is bounded at 4096 bytes, and whatever fits that bound can be deleted again.

const track = trackTestbeds();

it('repeated write_directory and set_working_directory stop at the 4096-byte bound, and the tree is deleted whole', async () => {
  const { sandbox, provider } = track(createLocalTestbed());
  const runtime = await createRuntime({ provider });
  try {
    const climber = runtime.spawn();
    const name = 'x'.repeat(254);
    let levels = 0;
    for (;;) {
      const made = await climber.call('write_directory', { path: name });
      if (!made.ok) {
        expect(made.error.code).toBe('invalid_path');
        break;
      }
      const moved = await climber.call('set_working_directory', { path: name });
      expect(moved.ok).toBe(true);
      levels++;
    }
    // 16 names of 254 bytes and their slashes take 4079 bytes; a 17th cannot fit.
    expect(levels).toBe(16);
    const cwd = await climber.call('get_working_directory', {});
    expect(cwd.ok && Buffer.byteLength(String(cwd.result.working_directory))).toBe(4079);
    // A slash and 17 bytes take the joined path to 4097, though the input itself is short.
    const tooFar = await climber.call('set_working_directory', { path: 'y'.repeat(17) });
    expect(tooFar.ok ? 'ok' : tooFar.error.code).toBe('invalid_path');
    const deleted = await runtime.spawn().call('delete_directory', { path: name, recursive: true });
    expect(deleted.ok).toBe(true);
    expect(existsSync(sandbox.at(name))).toBe(false);
  } finally {
    await runtime.close();
  }
});

it('the deepest tree of one-byte names the tools can make is deleted by delete_directory', async () => {
  const { sandbox, provider } = track(createLocalTestbed());
  const runtime = await createRuntime({ provider });
  try {
    const agent = runtime.spawn();
    const deepest = Array.from({ length: 2047 }, () => 'a').join('/');
    expect((await agent.call('write_directory', { path: deepest })).ok).toBe(true);
    expect((await agent.call('set_working_directory', { path: deepest })).ok).toBe(true);
    // 4093 bytes: three more fit, a fourth does not.
    expect((await agent.call('write_directory', { path: 'bb' })).ok).toBe(true);
    const over = await agent.call('write_directory', { path: 'bbb' });
    expect(over.ok ? 'ok' : over.error.code).toBe('invalid_path');
    const deleted = await runtime.spawn().call('delete_directory', { path: 'a', recursive: true });
    expect(deleted.ok).toBe(true);
    expect(existsSync(sandbox.at('a'))).toBe(false);
  } finally {
    await runtime.close();
  }
}, 120_000);
