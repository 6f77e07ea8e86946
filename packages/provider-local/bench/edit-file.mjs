// edit_text_file on real disk against its floor in the same run: a one-line edit of a 1 MiB file
// vs plain Node read, replace, write a temp file, fsync, rename, fsync the directory (the same
// durable replace; target <= 1.3x). The search rows are in search-tree.mjs.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalProvider } from '@libos/provider-local';
import { compare, loadTools, report, scratch } from './bench-util.mjs';

function durableReplace(base, name, bytes) {
  const temporary = join(base, `.${name}.tmp`);
  const fd = openSync(temporary, 'w', 0o644);
  writeSync(fd, bytes);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(temporary, join(base, name));
  const directory = openSync(base, 'r');
  fsyncSync(directory);
  closeSync(directory);
}

async function benchEdit(tools) {
  const { base, done } = scratch('edit');
  try {
    const lines = Array.from({ length: 16_384 }, (_, index) => `line ${String(index).padStart(6, '0')} ${'x'.repeat(50)}\n`);
    writeFileSync(join(base, 'big.txt'), lines.join(''));
    writeFileSync(join(base, 'floor.txt'), lines.join(''));
    const runtime = await tools.createRuntime({ provider: createLocalProvider({ root: base }) });
    const agent = runtime.spawn();
    let flip = false;
    const timing = await compare({
      ours: async () => {
        flip = !flip;
        const [from, to] = flip ? ['line 008000 ', 'LINE 008000 '] : ['LINE 008000 ', 'line 008000 '];
        const outcome = await agent.call('edit_text_file', { path: 'big.txt', edits: [{ old_text: from, new_text: to }] });
        if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
      },
      baseline: async () => {
        const text = readFileSync(join(base, 'floor.txt'), 'utf8');
        const at = text.indexOf('line 008000 ');
        const next = at === -1 ? text.replace('LINE 008000 ', 'line 008000 ') : text.slice(0, at) + 'LINE 008000 ' + text.slice(at + 12);
        durableReplace(base, 'floor.txt', Buffer.from(next, 'utf8'));
      },
      rounds: 9,
      callsPerRound: 20,
      warmup: 2,
    });
    report('edit one line of a 1 MiB file, edit_text_file vs read + durable replace in plain Node', timing, 1.3);
    await runtime.close();
  } finally {
    done();
  }
}

export async function benchEditFile() {
  const tools = await loadTools();
  if (tools === undefined) return;
  await benchEdit(tools);
}
