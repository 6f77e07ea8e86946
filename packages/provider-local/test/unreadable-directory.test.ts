import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// A directory the provider's user may write but not read (0o333) cannot be opened to fsync. The
// bytes are flushed before the rename, so the write must stand instead of failing after the fact.
// Only root can run the provider as another user, and the child needs the built packages (CI builds first).
const builtProvider = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const builtCore = fileURLToPath(new URL('../../core/dist/index.js', import.meta.url));
const canRun = process.getuid?.() === 0 && existsSync(builtProvider) && existsSync(builtCore);
const NOBODY = 65534;

it.runIf(canRun)('writes into a write-only directory as a non-root user succeed', () => {
  const base = mkdtempSync(join(tmpdir(), 'libos-unreadable-'));
  try {
    const root = join(base, 'workspace');
    mkdirSync(join(root, 'drop'), { recursive: true });
    chmodSync(base, 0o755);
    chownSync(root, NOBODY, NOBODY);
    chownSync(join(root, 'drop'), NOBODY, NOBODY);
    chmodSync(join(root, 'drop'), 0o333);
    const script = join(base, 'write.mjs');
    writeFileSync(
      script,
      `import { createLocalProvider } from ${JSON.stringify(builtProvider)};
import { ROOT_PATH, resolveWorkspacePath } from ${JSON.stringify(builtCore)};
const provider = createLocalProvider({ root: ${JSON.stringify(root)} });
const path = resolveWorkspacePath(ROOT_PATH, 'drop/note.txt');
const results = [];
for (const text of ['first', 'second']) {
  try { results.push(await provider.writeFile(path, new TextEncoder().encode(text), { overwrite: true })); }
  catch (error) { results.push({ code: error.code, effect: error.effect }); }
}
await provider.close();
process.stdout.write(JSON.stringify(results));`,
    );
    chmodSync(script, 0o644);
    const output = execFileSync(process.execPath, [script], { uid: NOBODY, gid: NOBODY, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual([{ created: true }, { created: false }]);
    expect(readFileSync(join(root, 'drop', 'note.txt'), 'utf8')).toBe('second');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
