import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './support/libos-binary.js';
import { peakRssOf, waitUntilIdle } from './support/process-stats.js';
import { HANDSHAKE, startRawMcp } from './support/raw-mcp.js';

const REQUESTS = 150;
const MIB = 1024 * 1024;

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  scratch = await temporaryDirectory();
  // 1 MiB of backslashes: each read's reply is about 6 MiB (2 as structuredContent, 4 as escaped text).
  await writeFile(join(scratch.path, 'big.txt'), '\\'.repeat(MIB));
});
afterAll(async () => {
  await scratch?.remove();
});

describe('libos mcp whose client floods requests and never reads', () => {
  it('stops reading at its bounds, stays under 300 MiB, then answers all once the client reads', async () => {
    const server = startRawMcp(['--root', scratch.path], {
      readStdout: false,
      keep: (message) => ({
        id: message.id,
        bytes_read: (message.result as { structuredContent?: { bytes_read?: number } } | undefined)?.structuredContent?.bytes_read,
      }),
    });
    for (const message of HANDSHAKE) server.send(message);
    for (let id = 1; id <= REQUESTS; id += 1) {
      server.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'big.txt', max_bytes: MIB } } });
    }
    await waitUntilIdle(server.child.pid!);
    const peak = await peakRssOf(server.child.pid!);
    console.error(`peak RSS of the flooded server: ${Math.round(peak / MIB)} MiB`);
    // Unbounded, this server held every reply: about 1.8 GB.
    expect(peak).toBeLessThan(300 * MIB);

    const { status, messages } = await server.finish();
    expect(status).toBe(0);
    const answered = messages.filter((message) => typeof message.id === 'number').map((message) => message.id);
    expect(answered).toHaveLength(REQUESTS);
    expect(new Set(answered).size).toBe(REQUESTS);
    expect(messages.at(-1)?.bytes_read).toBe(MIB);
  }, 240_000);
});
