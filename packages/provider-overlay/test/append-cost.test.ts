import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveWorkspacePath, ROOT_PATH, type FileSystemProviderV1 } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { createSandbox, type Sandbox } from './local-sandbox.js';

const path = (name: string) => resolveWorkspacePath(ROOT_PATH, name);
const bytes = (text: string) => new TextEncoder().encode(text);
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const BIG = 8 << 20;
const APPENDS = 100;

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

/** The state file's size once its journal is folded in: what the person's disk holds for the overlay. */
function stateBytes(state: string): number {
  const db = new Database(state);
  db.pragma('busy_timeout = 20000');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return statSync(state).size;
}

/** A local lower that counts the bytes its reads return. */
function counting(lower: FileSystemProviderV1): { provider: FileSystemProviderV1; read: () => number } {
  let read = 0;
  const provider: FileSystemProviderV1 = {
    ...lower,
    readFile: async (at, options) => {
      const result = await lower.readFile(at, options);
      read += result.bytes.length;
      return result;
    },
    readFileRange: async (at, options) => {
      const result = await (lower.readFileRange as NonNullable<FileSystemProviderV1['readFileRange']>)(at, options);
      read += result.bytes.length;
      return result;
    },
  };
  return { provider, read: () => read };
}

async function opened() {
  const sandbox = createSandbox();
  sandboxes.push(sandbox);
  const big = new Uint8Array(BIG).map((_, index) => index % 251);
  writeFileSync(join(sandbox.root, 'big.log'), big);
  const lower = createLocalProvider({ root: sandbox.root });
  const counted = counting(lower);
  const state = join(sandbox.stateDirectory, 'ws.overlay');
  const overlay = await openOverlay({ lower: counted.provider, state, lowerRoot: sandbox.root });
  return { sandbox, lower, overlay, state, big, lowerRead: counted.read };
}

describe('an append on the overlay costs what it appends', () => {
  it('100 appends of 10 bytes to an 8 MiB lower file grow the state by about what they append, and read the file once', async () => {
    const { sandbox, lower, overlay, state, big, lowerRead } = await opened();
    const before = stateBytes(state);
    const tail: string[] = [];
    for (let index = 0; index < APPENDS; index++) {
      const line = `line ${String(index).padStart(3, '0')}\n`;
      tail.push(line);
      const result = await overlay.provider.appendFile!(path('big.log'), bytes(line), { create: false, expectedSizeBytes: BIG + index * 9 });
      expect(result).toEqual({ bytesAppended: 9, sizeBytes: BIG + (index + 1) * 9, created: false });
    }
    const grown = stateBytes(state) - before;
    // Old: the first append copied 8 MiB into the state and every append rewrote the row.
    expect(grown).toBeLessThan(512 * 1024);
    // The lower file is read once, to hash the base; no later append reads it again.
    expect(lowerRead()).toBeLessThanOrEqual(BIG + 4096);
    expect(readFileSync(join(sandbox.root, 'big.log')).equals(Buffer.from(big))).toBe(true);

    const expected = Buffer.concat([big, Buffer.from(tail.join(''))]);
    const agentTail = await overlay.provider.readFileRange!(path('big.log'), { offset: 20, fromEnd: true, maxBytes: 30 });
    expect(Buffer.from(agentTail.bytes).toString()).toBe(expected.subarray(expected.length - 50, expected.length - 20).toString());
    const across = await overlay.provider.readFileRange!(path('big.log'), { offset: BIG - 5, maxBytes: 20 });
    expect(Buffer.from(across.bytes).equals(expected.subarray(BIG - 5, BIG + 15))).toBe(true);
    expect(Buffer.from((await overlay.provider.readFile(path('big.log'), { maxBytes: BIG * 2 })).bytes).equals(expected)).toBe(true);
    const { changes } = await overlay.changes();
    expect(changes).toEqual([
      {
        path: 'big.log',
        change: 'modified',
        kind: 'file',
        base: { sha256: sha256(big), size_bytes: BIG },
        current: { sha256: sha256(expected), size_bytes: expected.length },
        files_within: 0,
        version: expect.stringMatching(/^c-[0-9a-f]{32}$/),
      },
    ]);

    // Rewind keeps its promise: back to just after the 40th append.
    const calls = (await overlay.history()).calls;
    await overlay.rewind((calls[39] as { seq: number }).seq);
    const rewound = Buffer.concat([big, Buffer.from(tail.slice(0, 40).join(''))]);
    expect((await overlay.changes()).changes[0]?.current).toEqual({ sha256: sha256(rewound), size_bytes: rewound.length });
    await overlay.provider.appendFile!(path('big.log'), bytes('after rewind\n'), { create: false });
    const final = Buffer.concat([rewound, Buffer.from('after rewind\n')]);

    // Apply lands exactly the agent's file, by the base check; undo puts the base back.
    const applied = await overlay.apply();
    expect(applied.conflicts).toEqual([]);
    expect(readFileSync(join(sandbox.root, 'big.log')).equals(final)).toBe(true);
    await overlay.undoApply(applied.apply_id as string);
    expect(readFileSync(join(sandbox.root, 'big.log')).equals(Buffer.from(big))).toBe(true);
    expect(Buffer.from((await overlay.provider.readFile(path('big.log'), { maxBytes: BIG * 2 })).bytes).equals(final)).toBe(true);
    await overlay.close();
    await lower.close();
  });

  it("appends to the agent's own big file store only the appended bytes", async () => {
    const { lower, overlay, state, big } = await opened();
    await overlay.provider.writeFile(path('own.log'), big, { overwrite: false });
    await overlay.provider.appendFile!(path('own.log'), bytes('first\n'), { create: false });
    const before = stateBytes(state);
    for (let index = 0; index < APPENDS; index++) await overlay.provider.appendFile!(path('own.log'), bytes('0123456789'), { create: false });
    expect(stateBytes(state) - before).toBeLessThan(512 * 1024);
    const expected = Buffer.concat([big, Buffer.from('first\n'), Buffer.from('0123456789'.repeat(APPENDS))]);
    expect((await overlay.changes()).changes[0]?.current).toEqual({ sha256: sha256(expected), size_bytes: expected.length });
    await overlay.close();
    await lower.close();
  });

  it('a base edited on disk under the appended bytes: the agent is told, apply is a conflict, nothing lands', async () => {
    const { sandbox, lower, overlay } = await opened();
    await overlay.provider.appendFile!(path('big.log'), bytes('agent\n'), { create: false });
    writeFileSync(join(sandbox.root, 'big.log'), 'a person rewrote it\n');
    await expect(overlay.provider.readFile(path('big.log'), { maxBytes: 1 << 20 })).rejects.toMatchObject({
      code: 'changed_during_operation',
      details: { reason: 'base_changed_on_disk' },
    });
    expect((await overlay.diff()).text).toMatch(/# note: big.log changed on disk under the agent's appended bytes/);
    const result = await overlay.apply();
    expect(result.conflicts).toMatchObject([{ path: 'big.log', reason: 'changed_on_disk' }]);
    expect(readFileSync(join(sandbox.root, 'big.log'), 'utf8')).toBe('a person rewrote it\n');
    await overlay.discard();
    expect(Buffer.from((await overlay.provider.readFile(path('big.log'), { maxBytes: 1 << 20 })).bytes).toString()).toBe('a person rewrote it\n');
    await overlay.close();
    await lower.close();
  });

  it('a base deleted on disk under the appended bytes: the agent is told the same, not that its file is missing', async () => {
    const { sandbox, lower, overlay } = await opened();
    await overlay.provider.appendFile!(path('big.log'), bytes('agent\n'), { create: false });
    rmSync(join(sandbox.root, 'big.log'));
    for (const read of [
      () => overlay.provider.readFile(path('big.log'), { maxBytes: 1 << 20 }),
      () => overlay.provider.readFileRange!(path('big.log'), { offset: 10, maxBytes: 10 }),
      () => overlay.provider.copyFile!(path('big.log'), path('copy.log'), { overwrite: false }),
    ]) {
      await expect(read()).rejects.toMatchObject({ code: 'changed_during_operation', details: { reason: 'base_changed_on_disk' } });
    }
    expect((await overlay.apply()).conflicts).toMatchObject([{ path: 'big.log', reason: 'deleted_on_disk' }]);
    await overlay.close();
    await lower.close();
  });
});
