import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type FileSystemProviderV1, parseCanonicalPath } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { createLocalProvider } from '../src/index.js';
import { createSandbox } from './local-testbed.js';

// A name as a Mac writes it (NFD: `e` and U+0301) and as a model types it (NFC: U+00E9).
const CAFE_NFD = 'cafe\u0301.txt';
const CAFE_NFC = 'caf\u00E9.txt';
const RESUME_NFD = 're\u0301sume\u0301';
const RESUME_NFC = 'r\u00E9sum\u00E9';
const ETE_NFD = 'e\u0301te\u0301';
const ETE_NFC = '\u00E9t\u00E9';

/** One backend: its provider, and hands that shape the tree as another program would, below libOS. */
interface Backend {
  readonly provider: FileSystemProviderV1;
  put(path: string, content: string): Promise<void>;
  makeDirectory(path: string): Promise<void>;
  /** The names in a directory, exactly as the backend holds them. */
  names(path: string): Promise<string[]>;
  /** A file's text, or null when there is no file of exactly that name. */
  text(path: string): Promise<string | null>;
  dispose(): void;
}

function canonical(path: string) {
  const parsed = parseCanonicalPath(path);
  if (parsed === null) throw new Error(`not canonical: ${path}`);
  return parsed;
}

const BACKENDS: Record<string, () => Backend> = {
  memfs: () => {
    const provider = createMemfsProvider();
    return {
      provider,
      put: async (path, content) => {
        await provider.writeFile(canonical(path), new TextEncoder().encode(content), { overwrite: true });
      },
      makeDirectory: async (path) => {
        await provider.makeDirectory(canonical(path), { parents: true, existOk: true });
      },
      names: async (path) => (await provider.listDirectory(canonical(path), { limit: 10_000 })).entries.map((entry) => entry.name),
      dispose: () => {},
      text: async (path) => {
        try {
          return new TextDecoder().decode((await provider.readFile(canonical(path), { maxBytes: 1 << 20 })).bytes);
        } catch {
          return null;
        }
      },
    };
  },
  local: () => {
    const sandbox = createSandbox();
    return {
      dispose: () => sandbox.remove(),
      provider: createLocalProvider({ root: sandbox.root }),
      put: async (path, content) => {
        mkdirSync(dirname(sandbox.at(path)), { recursive: true });
        writeFileSync(sandbox.at(path), content);
      },
      makeDirectory: async (path) => {
        mkdirSync(sandbox.at(path), { recursive: true });
      },
      names: async (path) => readdirSync(sandbox.at(path)).sort(),
      text: async (path) => {
        try {
          // The host names exactly these bytes: Linux file systems neither normalize nor fold names.
          return readFileSync(sandbox.at(path), 'utf8');
        } catch {
          return null;
        }
      },
    };
  },
};

async function world(kind: string) {
  const backend = BACKENDS[kind]!();
  await backend.put(CAFE_NFD, 'bonjour\n');
  await backend.put(`${RESUME_NFD}/notes.txt`, 'note one\n');
  await backend.makeDirectory(ETE_NFD);
  await backend.put('plain.txt', 'plain\n');
  const runtime = await createRuntime({ provider: backend.provider });
  const process = runtime.spawn();
  await process.call('create_object_from_file', { name: 'memo', path: 'plain.txt' });
  return { backend, runtime, process };
}

type World = Awaited<ReturnType<typeof world>>;

interface Case {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** The result's fields, with the real (NFD) names. */
  readonly result?: Record<string, unknown>;
  /** The refusal: its code and the details that name the existing entry. */
  readonly error?: { readonly code: string; readonly details: Record<string, unknown> };
  /** What the backend holds afterwards. */
  readonly after?: (world: World) => Promise<void>;
}

const unchanged = async ({ backend }: World) => {
  expect(await backend.text(CAFE_NFD)).toBe('bonjour\n');
};

// Every tool that takes a path, given the NFC spelling of an entry that exists only in NFD.
const CASES: Case[] = [
  { tool: 'read_text_file', args: { path: CAFE_NFC }, result: { path: CAFE_NFD, content: 'bonjour\n' } },
  { tool: 'read_text_file', args: { path: CAFE_NFC, tail_lines: 1 }, result: { path: CAFE_NFD, content: 'bonjour\n' } },
  {
    tool: 'read_directory',
    args: { path: RESUME_NFC },
    result: { path: RESUME_NFD, entries: [expect.objectContaining({ name: 'notes.txt', path: `${RESUME_NFD}/notes.txt` })] },
  },
  { tool: 'set_working_directory', args: { path: RESUME_NFC }, result: { working_directory: RESUME_NFD } },
  {
    tool: 'write_text_file',
    args: { path: `${RESUME_NFC}/new.txt`, content: 'new' },
    result: { path: `${RESUME_NFD}/new.txt`, created: true },
    after: async ({ backend }) => expect(await backend.text(`${RESUME_NFD}/new.txt`)).toBe('new'),
  },
  {
    tool: 'write_text_file',
    args: { path: CAFE_NFC, content: 'twin' },
    error: { code: 'already_exists', details: { path: CAFE_NFC, existing: CAFE_NFD } },
    after: unchanged,
  },
  {
    tool: 'edit_text_file',
    args: { path: CAFE_NFC, edits: [{ old_text: 'bonjour', new_text: 'salut' }] },
    result: { path: CAFE_NFD, replacements: 1 },
    after: async ({ backend }) => expect(await backend.text(CAFE_NFD)).toBe('salut\n'),
  },
  {
    tool: 'append_text_file',
    args: { path: CAFE_NFC, content: 'encore\n' },
    result: { path: CAFE_NFD, created: false },
    after: async ({ backend }) => expect(await backend.text(CAFE_NFD)).toBe('bonjour\nencore\n'),
  },
  {
    tool: 'append_text_file',
    args: { path: CAFE_NFC, content: 'twin', create: true },
    error: { code: 'already_exists', details: { existing: CAFE_NFD } },
    after: unchanged,
  },
  {
    tool: 'copy_file',
    args: { from: CAFE_NFC, to: 'copy.txt' },
    result: { from: CAFE_NFD, to: 'copy.txt' },
    after: async ({ backend }) => expect(await backend.text('copy.txt')).toBe('bonjour\n'),
  },
  {
    tool: 'copy_file',
    args: { from: 'plain.txt', to: CAFE_NFC },
    error: { code: 'already_exists', details: { existing: CAFE_NFD } },
    after: unchanged,
  },
  {
    tool: 'move_file',
    args: { from: CAFE_NFC, to: 'moved.txt' },
    result: { from: CAFE_NFD, to: 'moved.txt', replaced: false },
    after: async ({ backend }) => {
      expect(await backend.text('moved.txt')).toBe('bonjour\n');
      expect(await backend.text(CAFE_NFD)).toBeNull();
    },
  },
  {
    tool: 'move_file',
    args: { from: 'plain.txt', to: CAFE_NFC, overwrite: true },
    error: { code: 'already_exists', details: { existing: CAFE_NFD } },
    after: unchanged,
  },
  {
    tool: 'delete_file',
    args: { path: CAFE_NFC },
    result: { path: CAFE_NFD, kind: 'file', deleted: true },
    after: async ({ backend }) => expect(await backend.text(CAFE_NFD)).toBeNull(),
  },
  {
    tool: 'delete_file',
    args: { path: CAFE_NFC, missing_ok: true },
    result: { path: CAFE_NFD, kind: 'file', deleted: true },
    after: async ({ backend }) => expect(await backend.text(CAFE_NFD)).toBeNull(),
  },
  {
    tool: 'delete_directory',
    args: { path: ETE_NFC },
    result: { path: ETE_NFD, kind: 'directory', deleted: true },
    after: async ({ backend }) => expect(await backend.names('.')).not.toContain(ETE_NFD),
  },
  { tool: 'write_directory', args: { path: ETE_NFC }, error: { code: 'already_exists', details: { existing: ETE_NFD } } },
  { tool: 'write_directory', args: { path: `${ETE_NFC}/sub` }, result: { path: `${ETE_NFD}/sub`, created: true } },
  {
    tool: 'search_files',
    args: { path: RESUME_NFC, query: 'note' },
    result: { path: RESUME_NFD, matches: [expect.objectContaining({ path: `${RESUME_NFD}/notes.txt`, line: 1 })] },
  },
  {
    tool: 'find_files',
    args: { path: RESUME_NFC, glob: '*.txt' },
    result: { path: RESUME_NFD, files: [expect.objectContaining({ path: `${RESUME_NFD}/notes.txt` })] },
  },
  { tool: 'create_object_from_file', args: { name: 'cafe', path: CAFE_NFC }, result: { source_path: CAFE_NFD, bytes_read: 8 } },
  {
    tool: 'write_object_to_file',
    args: { name: 'memo', path: `${RESUME_NFC}/memo.txt` },
    result: { path: `${RESUME_NFD}/memo.txt`, created: true },
    after: async ({ backend }) => expect(await backend.text(`${RESUME_NFD}/memo.txt`)).toBe('plain\n'),
  },
  {
    tool: 'write_object_to_file',
    args: { name: 'memo', path: CAFE_NFC },
    error: { code: 'already_exists', details: { existing: CAFE_NFD } },
    after: unchanged,
  },
];

describe.each(Object.keys(BACKENDS))('names equal after Unicode normalization, on %s', (kind) => {
  it.each(CASES.map((testCase) => [`${testCase.tool} ${JSON.stringify(testCase.args)}`, testCase] as const))('%s', async (_, testCase) => {
    const current = await world(kind);
    try {
      const outcome = await current.process.call(testCase.tool, testCase.args);
      if (testCase.error !== undefined) {
        expect(outcome).toMatchObject({ ok: false, error: { code: testCase.error.code, effect: 'none', details: testCase.error.details } });
      } else {
        expect(outcome).toMatchObject({ ok: true, result: testCase.result });
      }
      await testCase.after?.(current);
      // No call ever leaves an NFC twin beside an NFD name, at the root or in the NFD directory.
      const names = [...(await current.backend.names('.')), ...(await current.backend.names(RESUME_NFD))];
      for (const spelling of [CAFE_NFC, RESUME_NFC, ETE_NFC]) expect(names).not.toContain(spelling);
    } finally {
      await current.runtime.close();
      current.backend.dispose();
    }
  });

  it('the exact spelling wins over an equal name, and twins made outside are refused with both named, nothing touched', async () => {
    const current = await world(kind);
    try {
      const { backend, process } = current;
      await backend.put(CAFE_NFC, 'nfc\n');
      expect(await process.call('read_text_file', { path: CAFE_NFC })).toMatchObject({ ok: true, result: { path: CAFE_NFC, content: 'nfc\n' } });
      expect(await process.call('read_text_file', { path: CAFE_NFD })).toMatchObject({ ok: true, result: { path: CAFE_NFD, content: 'bonjour\n' } });
      // A third spelling (U+0341, which NFC makes U+0301): both files are equal to it, so neither is chosen.
      const third = 'cafe\u0341.txt';
      for (const [tool, args] of [
        ['read_text_file', { path: third }],
        ['delete_file', { path: third }],
        ['delete_file', { path: third, missing_ok: true }],
        ['write_text_file', { path: third, content: 'x' }],
        ['move_file', { from: third, to: 'elsewhere.txt' }],
      ] as const) {
        const outcome = await process.call(tool, args);
        expect(outcome, tool).toMatchObject({ ok: false, error: { code: 'not_found', effect: 'none' } });
        if (!outcome.ok) expect([...(outcome.error.details?.candidates as string[])].sort()).toEqual([CAFE_NFD, CAFE_NFC].sort());
      }
      expect(await backend.text(CAFE_NFC)).toBe('nfc\n');
      expect(await backend.text(CAFE_NFD)).toBe('bonjour\n');
      expect((await backend.names('.')).filter((name) => name.startsWith('caf')).length).toBe(2);
    } finally {
      await current.runtime.close();
      current.backend.dispose();
    }
  });
});
