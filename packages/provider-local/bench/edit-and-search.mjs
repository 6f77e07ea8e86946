// edit_text_file and search_files on real disk, each against its floor in the same run:
// - one-line edit of a 1 MiB file vs plain Node read, replace, write a temp file, fsync, rename,
//   fsync the directory (the same durable replace; target <= 1.3x);
// - a literal search over a 10,000-file tree vs `grep -r` of the same tree (target <= 3x), and the
//   search's peak heap with the same bounds over trees of 10,000 and 40,000 files (must not grow).
import { execFile } from 'node:child_process';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createLocalProvider } from '@libos/provider-local';
import { compare, loadTools, report, scratch } from './bench-util.mjs';

const run = promisify(execFile);

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

function makeTree(root, files) {
  for (let index = 0; index < files; index++) {
    const directory = join(root, `d${index % 100}`, `e${Math.floor(index / 100) % 10}`);
    if (index < 1000) mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, `f${index}.txt`), `header ${index}\n${'filler text '.repeat(20)}\n${index % 97 === 0 ? 'needle here\n' : ''}`);
  }
}

async function peakHeapDuring(body) {
  globalThis.gc?.();
  const start = process.memoryUsage().heapUsed;
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 1);
  try {
    await body();
  } finally {
    clearInterval(sampler);
  }
  return (Math.max(peak, process.memoryUsage().heapUsed) - start) / 1024 / 1024;
}

async function benchSearch(tools) {
  const small = scratch('search');
  const large = scratch('search-large');
  try {
    makeTree(small.base, 10_000);
    makeTree(large.base, 40_000);
    const runtime = await tools.createRuntime({ provider: createLocalProvider({ root: small.base }) });
    const agent = runtime.spawn();
    const search = async (target = agent, maxFiles = 10_000) => {
      const outcome = await target.call('search_files', { path: '.', query: 'needle', max_files: maxFiles, max_results: 1000 });
      if (!outcome.ok || (outcome.result.files_searched !== Math.min(maxFiles, 10_000) && maxFiles === 10_000))
        throw new Error(JSON.stringify(outcome).slice(0, 300));
      return outcome;
    };
    const timing = await compare({
      ours: () => search(),
      baseline: () => run('grep', ['-r', '-n', 'needle', '.'], { cwd: small.base, maxBuffer: 1 << 24 }),
      rounds: 5,
      callsPerRound: 1,
      warmup: 1,
    });
    report('literal search of a 10,000-file tree, search_files vs grep -r', timing, 3);
    const largeRuntime = await tools.createRuntime({ provider: createLocalProvider({ root: large.base }) });
    const largeAgent = largeRuntime.spawn();
    const smallPeak = await peakHeapDuring(() => search(agent, 2000));
    const largePeak = await peakHeapDuring(() => search(largeAgent, 2000));
    console.log(
      `search_files peak heap growth, same bounds (max_files 2000): ${smallPeak.toFixed(1)} MiB on 10,000 files, ${largePeak.toFixed(1)} MiB on 40,000 files`,
    );
    await runtime.close();
    await largeRuntime.close();
  } finally {
    small.done();
    large.done();
  }
}

export async function benchEditAndSearch() {
  const tools = await loadTools();
  if (tools === undefined) return;
  await benchEdit(tools);
  await benchSearch(tools);
}
