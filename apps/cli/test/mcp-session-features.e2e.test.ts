import { spawn } from 'node:child_process';
import { link, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBOS_BIN, temporaryDirectory } from './support/libos-binary.js';
import { failureOf, startMcpSession, type ElicitationAnswer } from './support/mcp-session.js';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  scratch = await temporaryDirectory();
});
afterAll(async () => {
  await scratch?.remove();
});

function structured(result: CallToolResult): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent!;
}

describe('approval through elicitation', () => {
  let root: string;
  let configFile: string;
  beforeAll(async () => {
    root = join(scratch.path, 'approvals');
    await mkdir(join(root, 'gated'), { recursive: true });
    configFile = join(scratch.path, 'approvals.json');
    await writeFile(
      configFile,
      JSON.stringify({
        grants: [
          { path: '.', tree: true, rights: ['read', 'write', 'delete'] },
          { path: 'gated', tree: true, rights: ['write'], mode: 'ask' },
        ],
      }),
    );
  });

  async function writeGated(answer: ElicitationAnswer, name: string) {
    const session = await startMcpSession(['--root', root, '--config', configFile], answer);
    try {
      const result = await session.call('write_text_file', { path: `gated/${name}`, content: 'approved text' });
      return { result, elicitations: [...session.elicitations] };
    } finally {
      await session.close();
    }
  }

  it('writes after the user accepts, and the question names the tool, the right and the path', async () => {
    const { result, elicitations } = await writeGated('accept', 'accepted.txt');
    expect(structured(result)).toEqual({ path: 'gated/accepted.txt', bytes_written: 13, created: true });
    expect(elicitations).toHaveLength(1);
    expect(elicitations[0]!.message).toContain('write_text_file to write "gated/accepted.txt"');
    expect(elicitations[0]!.message).not.toContain(root);
    expect(await readFile(join(root, 'gated/accepted.txt'), 'utf8')).toBe('approved text');
  });

  it('shows a hostile path escaped, so it cannot pass for another (CR, ANSI, bidi, ZWJ, quotes)', async () => {
    // On a terminal, CR plus "erase line" would leave only `public/notes.txt` on screen.
    const hostile = '\r\u001b[2Kpublic\u202Etxt.exe\u2066\u200D\u2028"? ok';
    const { result, elicitations } = await writeGated('decline', hostile);
    expect(failureOf(result)).toMatchObject({ code: 'approval_rejected' });
    const message = elicitations[0]!.message;
    expect(message).toContain('write "gated/\\r\\u{001B}[2Kpublic\\u{202E}txt.exe\\u{2066}\\u{200D}\\u{2028}\\"? ok"?');
    // The only line breaks are the content preview's, each followed by its margin.
    expect(message.replaceAll('\n  | ', ' ')).not.toMatch(/[\r\n\u001b\u202e\u2066\u200d\u2028]/u);
  });

  it('refuses with approval_rejected when the user declines, writing nothing', async () => {
    const { result } = await writeGated('decline', 'declined.txt');
    expect(result.isError).toBe(true);
    expect(result).not.toHaveProperty('structuredContent');
    expect(failureOf(result)).toMatchObject({ code: 'approval_rejected', effect: 'none' });
    await expect(stat(join(root, 'gated/declined.txt'))).rejects.toThrow();
  });

  it('fails with approval_required on a cancel and for a client without elicitation', async () => {
    expect(failureOf((await writeGated('cancel', 'cancelled.txt')).result)).toMatchObject({ code: 'approval_required' });
    expect(failureOf((await writeGated('none', 'unasked.txt')).result)).toMatchObject({ code: 'approval_required' });
    await expect(stat(join(root, 'gated/unasked.txt'))).rejects.toThrow();
  });

  it('asks nothing for calls that an allow grant covers', async () => {
    const session = await startMcpSession(['--root', root, '--config', configFile], 'accept');
    try {
      structured(await session.call('write_text_file', { path: 'open.txt', content: 'x' }));
      expect(session.elicitations).toHaveLength(0);
    } finally {
      await session.close();
    }
  });
});

describe('--provider memfs --seed', () => {
  it('serves a copy of the seed in memory, links included, and never touches the seed', async () => {
    const seed = join(scratch.path, 'seed');
    await mkdir(join(seed, 'docs'), { recursive: true });
    await writeFile(join(seed, 'docs/readme.txt'), 'seeded');
    await writeFile(join(seed, 'twin-a.txt'), 'twins');
    await link(join(seed, 'twin-a.txt'), join(seed, 'twin-b.txt'));
    await symlink('docs', join(seed, 'docs-link'));
    const session = await startMcpSession(['--provider', 'memfs', '--seed', seed]);
    try {
      const listing = structured(await session.call('read_directory', { path: '.' }));
      expect((listing['entries'] as { name: string; kind: string }[]).map((entry) => [entry.name, entry.kind])).toEqual([
        ['docs', 'directory'],
        ['docs-link', 'symlink'],
        ['twin-a.txt', 'file'],
        ['twin-b.txt', 'file'],
      ]);
      expect(structured(await session.call('read_text_file', { path: 'docs/readme.txt' }))).toMatchObject({ content: 'seeded' });
      expect(failureOf(await session.call('read_text_file', { path: 'docs-link/readme.txt' }))).toMatchObject({ code: 'symlink_refused' });
      expect(failureOf(await session.call('read_text_file', { path: 'twin-a.txt' }))).toMatchObject({ code: 'hard_link_refused' });
      structured(await session.call('write_text_file', { path: 'docs/readme.txt', content: 'changed in memory' }));
    } finally {
      await session.close();
    }
    expect(await readFile(join(seed, 'docs/readme.txt'), 'utf8')).toBe('seeded');
  });
});

describe('--objects', () => {
  it('restores the Objects of declared namespaces after a restart', async () => {
    const root = join(scratch.path, 'objects-root');
    await mkdir(root);
    await writeFile(join(root, 'source.txt'), 'kept across restarts');
    const configFile = join(scratch.path, 'objects.json');
    await writeFile(configFile, JSON.stringify({ namespaces: [{ name: 'shared', rights: ['read', 'write'] }] }));
    const checkpoint = join(scratch.path, 'objects.checkpoint');
    const args = ['--root', root, '--config', configFile, '--objects', checkpoint];

    const first = await startMcpSession(args);
    try {
      structured(await first.call('create_object_from_file', { name: 'kept', namespace: 'shared', path: 'source.txt' }));
    } finally {
      await first.close();
    }
    expect((await stat(checkpoint)).isFile()).toBe(true);

    const second = await startMcpSession(args);
    try {
      structured(await second.call('write_object_to_file', { name: 'kept', namespace: 'shared', path: 'restored.txt' }));
      expect(failureOf(await second.call('create_object_from_file', { name: 'kept', namespace: 'shared', path: 'source.txt' }))).toMatchObject({
        code: 'name_taken',
      });
    } finally {
      await second.close();
    }
    expect(await readFile(join(root, 'restored.txt'), 'utf8')).toBe('kept across restarts');
  });
});

describe('process lifetime', () => {
  it('exits with status 0 when stdin closes, writing nothing to stdout', async () => {
    const child = spawn(process.execPath, [LIBOS_BIN, 'mcp', '--provider', 'memfs'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const ready = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('serving')) resolve();
      }),
    );
    await Promise.race([ready, exited]);
    child.stdin.end();
    expect(await exited, stderr).toBe(0);
    expect(stdout).toBe('');
  });
});
