// search_files and find_files on real disk against the tools a person would run instead, in the same run:
// - a literal search over a 10,000-file tree vs `grep -r` (target <= 3x) and `rg -j2` (target <= 2x,
//   skipped when ripgrep is not installed), on a provider with the options `libos mcp` uses;
// - the search's peak heap with the same bounds over trees of 10,000 and 40,000 files (must not grow);
// - 2,000 files each in its own directory nested 2,000 deep against the same files flat (the cost
//   must not grow with depth squared: target <= 3x);
// - find_files over the 10,000-file tree vs `find -name` (reported).
// Runs alone with `node --expose-gc bench/search-tree.mjs` (after a build), or from run.mjs.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createLocalProvider } from '@libos/provider-local';
import { compare, loadTools, report, scratch } from './bench-util.mjs';

const run = promisify(execFile);

function makeTree(root, files) {
  for (let index = 0; index < files; index++) {
    const directory = join(root, `d${index % 100}`, `e${Math.floor(index / 100) % 10}`);
    if (index < 1000) mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, `f${index}.txt`), `header ${index}\n${'filler text '.repeat(20)}\n${index % 97 === 0 ? 'needle here\n' : ''}`);
  }
}

// Each directory one letter long, so 2,000 levels stay within the 4,096-byte path bound.
function makeNested(root, depth) {
  let directory = root;
  for (let level = 0; level < depth; level++) {
    directory = join(directory, 'n');
    mkdirSync(directory);
    writeFileSync(join(directory, 'f.txt'), level % 50 === 0 ? 'needle\n' : 'hay\n');
  }
}

function makeFlat(root, count) {
  mkdirSync(join(root, 'flat'));
  for (let index = 0; index < count; index++) writeFileSync(join(root, 'flat', `f${index}.txt`), index % 50 === 0 ? 'needle\n' : 'hay\n');
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

async function hasRipgrep() {
  try {
    await run('rg', ['--version']);
    return true;
  } catch {
    return false;
  }
}

function expectOk(outcome) {
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error).slice(0, 300));
  return outcome.result;
}

export async function benchSearchTree() {
  const tools = await loadTools();
  if (tools === undefined) return;
  const small = scratch('search');
  const large = scratch('search-large');
  const deep = scratch('search-deep');
  try {
    makeTree(small.base, 10_000);
    makeTree(large.base, 40_000);
    const options = { root: small.base, borrowWorkingDirectory: true };
    const runtime = await tools.createRuntime({ provider: createLocalProvider(options) });
    const agent = runtime.spawn();
    const search = async (target = agent, maxFiles = 10_000) => {
      const result = expectOk(await target.call('search_files', { path: '.', query: 'needle', max_files: maxFiles, max_results: 1000 }));
      if (maxFiles === 10_000 && (result.files_searched !== 10_000 || result.count !== 104)) throw new Error(JSON.stringify(result).slice(0, 300));
      return result;
    };
    report(
      'literal search of a 10,000-file tree, search_files vs grep -r',
      await compare({
        ours: () => search(),
        baseline: () => run('grep', ['-r', '-n', 'needle', '.'], { cwd: small.base, maxBuffer: 1 << 24 }),
        rounds: 7,
        warmup: 1,
      }),
      3,
    );
    if (await hasRipgrep()) {
      report(
        'literal search of a 10,000-file tree, search_files vs rg -j2',
        await compare({
          ours: () => search(),
          baseline: () => run('rg', ['-j2', '-n', '--no-ignore', '--hidden', 'needle', '.'], { cwd: small.base, maxBuffer: 1 << 24 }),
          rounds: 7,
          warmup: 1,
        }),
        2,
      );
    } else console.log('  (ripgrep not installed: the rg -j2 row is skipped)');
    report(
      'find_files *.txt over a 10,000-file tree vs find -name',
      await compare({
        ours: async () => expectOk(await agent.call('find_files', { path: '.', glob: '**/*.txt', max_results: 1000 })),
        baseline: () => run('find', ['.', '-name', '*.txt', '-type', 'f'], { cwd: small.base, maxBuffer: 1 << 24 }),
        rounds: 7,
        warmup: 1,
      }),
      3,
    );
    const largeRuntime = await tools.createRuntime({ provider: createLocalProvider({ ...options, root: large.base }) });
    const largeAgent = largeRuntime.spawn();
    const smallPeak = await peakHeapDuring(() => search(agent, 2000));
    const largePeak = await peakHeapDuring(() => search(largeAgent, 2000));
    console.log(
      `search_files peak heap growth, same bounds (max_files 2000): ${smallPeak.toFixed(1)} MiB on 10,000 files, ${largePeak.toFixed(1)} MiB on 40,000 files`,
    );
    makeNested(deep.base, 2000);
    makeFlat(deep.base, 2000);
    const deepRuntime = await tools.createRuntime({ provider: createLocalProvider({ ...options, root: deep.base }) });
    const deepAgent = deepRuntime.spawn();
    const within = async (path) => {
      const result = expectOk(await deepAgent.call('search_files', { path, query: 'needle', max_files: 10_000, deadline_ms: 60_000 }));
      if (result.files_searched !== 2000 || result.count !== 40) throw new Error(JSON.stringify(result).slice(0, 300));
    };
    report(
      '2,000 files nested 2,000 directories deep vs the same files flat, search_files',
      await compare({ ours: () => within('n'), baseline: () => within('flat'), rounds: 3, warmup: 1 }),
      3,
    );
    await runtime.close();
    await largeRuntime.close();
    await deepRuntime.close();
  } finally {
    small.done();
    large.done();
    deep.done();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSearchTree();
