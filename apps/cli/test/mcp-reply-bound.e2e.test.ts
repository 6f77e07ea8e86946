import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './support/libos-binary.js';
import { failureOf, startMcpSession } from './support/mcp-session.js';

const FILES = 3600;

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  scratch = await temporaryDirectory();
  // 255-byte names of backslashes: each byte is 2 in the result's JSON and 4 more in its escaped
  // text copy, so a listing well under result_max_bytes becomes a reply over 10 MiB.
  for (let start = 0; start < FILES; start += 100) {
    await Promise.all(
      Array.from({ length: 100 }, (_, offset) => writeFile(join(scratch.path, `${'\\'.repeat(249)}${String(start + offset).padStart(6, '0')}`), '')),
    );
  }
  // 3,600 files on a loaded machine can take longer than the default hook timeout.
}, 120_000);
afterAll(async () => {
  await scratch?.remove();
});

describe('a reply that would be larger than an SDK client reads', () => {
  it('fails with result_too_large, saying how to narrow the call, and the session goes on', async () => {
    // The SDK client with its default read limit (10 MiB): a larger message would end its session.
    const session = await startMcpSession(['--root', scratch.path]);
    try {
      const listing = await session.call('read_directory', { path: '.', limit: 10_000 });
      expect(listing.isError).toBe(true);
      expect(listing.structuredContent).toBeUndefined();
      const failure = failureOf(listing) as {
        code: string;
        message: string;
        effect: string;
        details: { reply_bytes: number; max_reply_bytes: number };
      };
      expect(failure).toMatchObject({ code: 'result_too_large', effect: 'none', details: { max_reply_bytes: 10_000_000 } });
      expect(failure.details.reply_bytes).toBeGreaterThan(10_000_000);
      expect(failure.message).toMatch(/narrow the request/u);
      expect(failure.message).toMatch(/limit/u);

      // The runtime's own bound passed it: the same listing, narrowed, comes back whole.
      const narrowed = await session.call('read_directory', { path: '.', limit: 1000 });
      expect(narrowed.isError).toBeUndefined();
      expect(narrowed.structuredContent).toMatchObject({ count: 1000, truncated: true });
      const reply = JSON.stringify(narrowed);
      expect(reply.length).toBeGreaterThan(2_000_000);
    } finally {
      await session.close();
    }
  });
});
