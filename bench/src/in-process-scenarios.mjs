import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createLocalProvider } from '@libos/provider-local';
import { createRuntime } from '@libos/tools';
import { alternate } from './alternate.mjs';
import { buildFiles } from './build-files.mjs';
import { SMALL_BYTES } from './make-fixtures.mjs';
import { plainNodeWrite } from './plain-node-write.mjs';

const run = promisify(execFile);

// What `libos mcp` and `libos serve` create their provider with (apps/cli workspace-options.ts).
const MCP_OPTIONS = { borrowWorkingDirectory: true };

async function openRuntime(root, options = {}) {
  const runtime = await createRuntime({ provider: createLocalProvider({ root, ...options }) });
  const agent = runtime.spawn();
  const call = async (name, args) => {
    const outcome = await agent.call(name, args);
    if (!outcome.ok) throw new Error(`${name} failed: ${outcome.error.code} ${outcome.error.message}`);
    return outcome.result;
  };
  return { call, close: () => runtime.close() };
}

/** write_text_file through the tools runtime on provider-local, against plain Node with and without durability. */
export async function benchInProcessWrite(root, scale) {
  const runtime = await openRuntime(root);
  const content = 'v'.repeat(SMALL_BYTES - 1) + '\n';
  const bytes = Buffer.from(content);
  try {
    const times = await alternate(
      {
        ours: () => runtime.call('write_text_file', { path: 'in-process-ours.txt', content }),
        durable: () => plainNodeWrite(join(root, 'in-process-durable.txt'), bytes, true),
        plain: () => plainNodeWrite(join(root, 'in-process-plain.txt'), bytes, false),
      },
      { rounds: 20 * scale, calls: 3, warmup: 10 },
    );
    return [
      {
        id: 'write-100-durable-floor',
        label: `write ${SMALL_BYTES} B in process vs plain Node, same durability`,
        unit: 'ms',
        ours: times.ours,
        theirs: times.durable,
        target: 1.15,
      },
      {
        id: 'write-100-plain-floor',
        label: `write ${SMALL_BYTES} B in process vs plain Node without fsync`,
        unit: 'ms',
        ours: times.ours,
        theirs: times.plain,
        target: null,
      },
      ...(await benchTmpfsWrite(scale, content, bytes)),
    ];
  } finally {
    await runtime.close();
  }
}

const TMPFS_MAGIC = 0x01021994;

// On a loaded machine an fsync takes milliseconds and hides what each side does around it; on tmpfs
// it costs nothing, so this row shows the write's own work (checks, lock, staging) against the
// floor's. Reported only, and only where /dev/shm is a tmpfs.
async function benchTmpfsWrite(scale, content, bytes) {
  try {
    if (statfsSync('/dev/shm').type !== TMPFS_MAGIC) return [];
  } catch {
    return [];
  }
  const root = mkdtempSync(join('/dev/shm', 'libos-bench-'));
  try {
    const runtime = await openRuntime(root);
    try {
      const times = await alternate(
        {
          ours: () => runtime.call('write_text_file', { path: 'in-process-ours.txt', content }),
          durable: () => plainNodeWrite(join(root, 'in-process-durable.txt'), bytes, true),
        },
        { rounds: 20 * scale, calls: 10, warmup: 20 },
      );
      return [
        {
          id: 'write-100-tmpfs-floor',
          label: `write ${SMALL_BYTES} B in process on tmpfs (fsync costs nothing) vs plain Node, same durability`,
          unit: 'ms',
          ours: times.ours,
          theirs: times.durable,
          target: null,
        },
      ];
    } finally {
      await runtime.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * delete_directory recursive through the tools runtime, against spawning `rm -rf`, on fresh trees:
 * once with the provider options `libos mcp` uses (the target), once with the defaults (reported).
 */
export async function benchDelete(root, files, rounds) {
  const runtimes = { mcp: await openRuntime(root, MCP_OPTIONS), defaults: await openRuntime(root) };
  const tree = (name) => join(root, `tree-${name}`);
  const count = files.toLocaleString('en');
  try {
    const times = await alternate(
      {
        mcp: () => runtimes.mcp.call('delete_directory', { path: 'tree-mcp', recursive: true }),
        defaults: () => runtimes.defaults.call('delete_directory', { path: 'tree-defaults', recursive: true }),
        theirs: () => run('rm', ['-rf', tree('theirs')]),
      },
      { rounds, prepare: (name) => buildFiles('tree', tree(name), files) },
    );
    return [
      {
        id: `delete-${files / 1000}k`,
        label: `recursive delete of ${count} files, in process (libos mcp's options: borrowWorkingDirectory), vs rm -rf`,
        unit: 'ms',
        ours: times.mcp,
        theirs: times.theirs,
        target: 1.2,
      },
      {
        id: `delete-${files / 1000}k-default-options`,
        label: `recursive delete of ${count} files, in process (default provider options), vs rm -rf`,
        unit: 'ms',
        ours: times.defaults,
        theirs: times.theirs,
        target: null,
      },
    ];
  } finally {
    for (const name of ['mcp', 'defaults', 'theirs']) rmSync(tree(name), { recursive: true, force: true });
    await runtimes.mcp.close();
    await runtimes.defaults.close();
  }
}
