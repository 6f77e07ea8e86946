import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './support/libos-binary.js';
import { failureOf, startMcpSession } from './support/mcp-session.js';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let configFile: string;
beforeAll(async () => {
  scratch = await temporaryDirectory();
  configFile = join(scratch.path, 'small-arguments.json');
  await writeFile(configFile, JSON.stringify({ bounds: { arguments_max_bytes: 1024 } }));
});
afterAll(async () => {
  await scratch?.remove();
});

describe('arguments far over bounds.arguments_max_bytes', () => {
  it('fail with arguments_too_large and leave the session alive', async () => {
    const session = await startMcpSession(['--provider', 'memfs', '--config', configFile]);
    try {
      // Past the transport's own read limit (10 MiB at least): once, this ended the session.
      const huge = await session.call('write_text_file', { path: 'huge.txt', content: 'x'.repeat(11 * 1024 * 1024) });
      expect(huge.isError).toBe(true);
      expect(huge.structuredContent).toBeUndefined();
      expect(failureOf(huge)).toMatchObject({ code: 'arguments_too_large', effect: 'none', details: { max_bytes: 1024 } });
      // Just over the bound: the runtime's own check answers the same.
      const over = await session.call('write_text_file', { path: 'over.txt', content: 'x'.repeat(2048) });
      expect(failureOf(over)).toMatchObject({ code: 'arguments_too_large', effect: 'none' });
      const after = await session.call('read_directory', { path: '.' });
      expect(after.structuredContent).toMatchObject({ count: 0 });
    } finally {
      await session.close();
    }
  });
});
