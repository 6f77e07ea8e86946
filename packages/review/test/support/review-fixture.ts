import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileAuditLog } from '@libos/audit';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { openOverlay, type Overlay } from '@libos/provider-overlay';
import { createRuntime } from '@libos/tools';

/** A workspace on disk, an agent's session on an overlay over it, and the person's side. */
export interface ReviewFixture {
  readonly root: string;
  readonly overlay: Overlay;
  /** The audit log of the agent's session. */
  readonly auditFile: string;
  /**
   * The agent going on working while the person reviews: a write through another opening of the
   * same state (as the agent's server, another process, does).
   */
  agentWrites(path: string, content: string): Promise<void>;
  /** The agent moving a file (move_file), through another opening of the state. */
  agentMoves(from: string, to: string): Promise<void>;
  /** The agent making a directory (with its parents), through another opening of the state. */
  agentMakesDirectory(path: string): Promise<void>;
  /** Every file under the root but the provider's staging area: path → mode and bytes (hex). */
  snapshot(): Record<string, string>;
  close(): Promise<void>;
}

/**
 * The same scene for every test: an agent that modified one file, added one, deleted one, wrote a
 * file that is not UTF-8 text and added a file under a new directory, through the real tools.
 */
export async function openReviewFixture(): Promise<ReviewFixture> {
  const base = mkdtempSync(join(tmpdir(), 'libos-review-'));
  const root = join(base, 'workspace');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'README.md'), '# Project\n\nOne line.\nTwo lines.\n');
  writeFileSync(join(root, 'src', 'main.ts'), 'export const answer = 41;\nexport const name = "x";\n');
  writeFileSync(join(root, 'old-notes.txt'), 'to be deleted\n');
  writeFileSync(join(root, 'logo.bin'), Buffer.from([0xff, 0xfe, 0x00, 0x01]));
  const state = join(base, 'review.overlay');
  const overlay = await openOverlay({ lower: createLocalProvider({ root }), state, lowerRoot: root });
  const auditFile = join(base, 'audit.log');
  const audit = await createFileAuditLog({ path: auditFile });
  const runtime = await createRuntime({ provider: overlay.provider, audit });
  const agent = runtime.spawn();
  const calls: [string, Record<string, unknown>][] = [
    ['edit_text_file', { path: 'src/main.ts', edits: [{ old_text: 'answer = 41', new_text: 'answer = 42' }] }],
    ['write_text_file', { path: 'docs/guide.md', content: '# Guide\n\nStep one.\n' }],
    ['delete_file', { path: 'old-notes.txt' }],
    ['write_text_file', { path: 'logo.bin', content: 'ÿé\u0000', encoding: 'latin1', overwrite: true }],
    ['edit_text_file', { path: 'README.md', edits: [{ old_text: 'One line.', new_text: 'One line, <b>bold</b> & "quoted".' }] }],
  ];
  for (const [tool, args] of calls) {
    const outcome = await agent.call(tool, args);
    if (!outcome.ok) throw new Error(`${tool} failed in the fixture: ${JSON.stringify(outcome.error)}`);
  }
  await runtime.close();
  await audit.close();
  return {
    root,
    overlay,
    auditFile,
    async agentWrites(path, content) {
      const other = await openOverlay({ lower: createLocalProvider({ root }), state, lowerRoot: root });
      try {
        const at = resolveWorkspacePath(ROOT_PATH, path);
        await other.provider.writeFile(at, new TextEncoder().encode(content), { overwrite: true });
      } finally {
        await other.close();
      }
    },
    async agentMoves(from, to) {
      const other = await openOverlay({ lower: createLocalProvider({ root }), state, lowerRoot: root });
      try {
        const at = (path: string) => resolveWorkspacePath(ROOT_PATH, path);
        await other.provider.rename?.(at(from), at(to), { overwrite: false });
      } finally {
        await other.close();
      }
    },
    async agentMakesDirectory(path) {
      const other = await openOverlay({ lower: createLocalProvider({ root }), state, lowerRoot: root });
      try {
        await other.provider.makeDirectory(resolveWorkspacePath(ROOT_PATH, path), { parents: true, existOk: false });
      } finally {
        await other.close();
      }
    },
    snapshot: () => snapshotOf(root),
    async close() {
      await overlay.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

function snapshotOf(root: string, prefix = ''): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of readdirSync(join(root, prefix)).sort()) {
    // The local provider's own staging area (temporaries before their rename), not the person's files.
    if (prefix === '' && name === '.libos-staging') continue;
    const path = prefix === '' ? name : `${prefix}/${name}`;
    const status = statSync(join(root, path));
    if (status.isDirectory()) {
      entries[`${path}/`] = `dir ${(status.mode & 0o7777).toString(8)}`;
      Object.assign(entries, snapshotOf(root, path));
    } else {
      entries[path] = `${(status.mode & 0o7777).toString(8)} ${readFileSync(join(root, path)).toString('hex')}`;
    }
  }
  return entries;
}
