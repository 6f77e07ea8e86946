// Bench of the audit log (root `pnpm bench` builds first): the cost it adds to a 100-byte
// read_text_file in process, on memfs and on the local provider (target at most 25% added), and
// `verify` of 1,000,000 records (target at most 10 s). The baseline, the same runtime without audit, is measured in the same run,
// interleaved round by round so that a change in machine load hits both alike. Each round is timed by the clock and by the
// CPU time the process spent (every thread): on a machine other work shares, the clock also counts the time this process
// waited for a core, which stretches both sides but not alike, while the CPU time counts only the work done.
// Two stubs run in the same rounds, to tell the log's own cost from what any trail costs: a trail that records nothing
// (the runtime's side of auditing), and one that appends a line of a record's size with one write per call and no digest
// or chain (the floor a record written before its answer sets). LIBOS_BENCH_RECORDS sets the verify size (default 1000000).
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createFileAuditLog, verify } from '@libos/audit';
import { createLocalProvider } from '@libos/provider-local';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';

const ROUNDS = 15;
const CALLS_PER_ROUND = 2000;
const RECORDS = Number(process.env.LIBOS_BENCH_RECORDS ?? 1_000_000);
const directory = mkdtempSync(join(tmpdir(), 'libos-audit-bench-'));

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function runtimeWith(makeProvider, audit) {
  const runtime = await createRuntime({ provider: makeProvider(), ...(audit === undefined ? {} : { audit }) });
  const process = runtime.spawn();
  const written = await process.call('write_text_file', { path: 'small.txt', content: 'x'.repeat(100) });
  if (!written.ok) throw new Error(written.error.message);
  return { runtime, process };
}

// Microseconds per call: by the clock, and of CPU time.
async function round(agent) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let call = 0; call < CALLS_PER_ROUND; call += 1) {
    const read = await agent.call('read_text_file', { path: 'small.txt' });
    if (!read.ok) throw new Error(read.error.message);
  }
  const spent = process.cpuUsage(cpu);
  return { wall: ((performance.now() - started) * 1000) / CALLS_PER_ROUND, cpu: (spent.user + spent.system) / CALLS_PER_ROUND };
}

const added = (base, cost) => `${(((cost - base) / base) * 100).toFixed(1)}%`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

// A trail of the runtime's interface whose calls cost what `finish` does: nothing, or one write of a record's size.
function stubTrail(finish) {
  const call = { watch: (provider) => provider, notePath() {}, noteDecision() {}, finish };
  return { openSession: async () => ({ id: 'ses_0000000000000000', begin: () => call, end: async () => {} }) };
}

try {
  console.log(`load average ${load()} at the start`);
  const providers = {
    memfs: () => createMemfsProvider(),
    local: () => {
      mkdirSync(join(directory, 'workspace'), { recursive: true });
      return createLocalProvider({ root: join(directory, 'workspace') });
    },
  };
  for (const [name, makeProvider] of Object.entries(providers)) {
    const log = await createFileAuditLog({ path: join(directory, `in-process-${name}.log`) });
    const stubFd = openSync(join(directory, `stub-${name}.log`), 'a', 0o600);
    // A read's record is about 420 bytes.
    const line = `${'x'.repeat(420)}\n`;
    const variants = {
      without: await runtimeWith(makeProvider, undefined),
      audit: await runtimeWith(makeProvider, log),
      nothing: await runtimeWith(
        makeProvider,
        stubTrail(() => Promise.resolve()),
      ),
      write: await runtimeWith(
        makeProvider,
        stubTrail(() => {
          writeSync(stubFd, line);
          return Promise.resolve();
        }),
      ),
    };
    const timings = Object.fromEntries(Object.keys(variants).map((variant) => [variant, []]));
    // Two warm-up rounds, then the order reversed every other round.
    for (let index = -2; index < ROUNDS; index += 1) {
      const order = index % 2 === 0 ? Object.keys(variants) : Object.keys(variants).reverse();
      for (const variant of order) {
        const timing = await round(variants[variant].process);
        if (index >= 0) timings[variant].push(timing);
      }
    }
    for (const variant of Object.values(variants)) await variant.runtime.close();
    await log.close();
    closeSync(stubFd);
    const wall = (variant) => median(timings[variant].map((timing) => timing.wall));
    const cpu = (variant) => median(timings[variant].map((timing) => timing.cpu));
    console.log(
      `in-process 100-byte read (${name}): ${wall('without').toFixed(1)} us without audit, ${wall('audit').toFixed(1)} us with audit: ` +
        `${added(wall('without'), wall('audit'))} added (target <= 25%); CPU ${cpu('without').toFixed(1)} us and ${cpu('audit').toFixed(1)} us: ` +
        `${added(cpu('without'), cpu('audit'))} added`,
    );
    console.log(
      `  stubs (${name}): a trail recording nothing ${added(wall('without'), wall('nothing'))} (CPU ${added(cpu('without'), cpu('nothing'))}), ` +
        `one write per call and no digest ${added(wall('without'), wall('write'))} (CPU ${added(cpu('without'), cpu('write'))})`,
    );
  }

  // A log of RECORDS call records, as a runtime writes them (paths, decision, result).
  const file = join(directory, 'million.log');
  const big = await createFileAuditLog({ path: file });
  const session = await big.openSession({ provider: 'bench' });
  const writeStarted = performance.now();
  // A thousand calls ending together, as under load: their records share writes.
  for (let first = 2; first < RECORDS; first += 1000) {
    const finished = [];
    for (let index = first; index < Math.min(first + 1000, RECORDS); index += 1) {
      const call = session.begin({ process: 'pid_0123456789abcdef', tool: 'read_text_file', arguments: { path: `dir/file-${index}.txt` } });
      call.notePath(`dir/file-${index}.txt`);
      call.noteDecision({ outcome: 'allowed', rule: null });
      finished.push(call.finish({ ok: true, result: {} }));
    }
    await Promise.all(finished);
  }
  await session.end();
  await big.close();
  const writeSeconds = (performance.now() - writeStarted) / 1000;
  const verifyStarted = performance.now();
  const memoryBefore = process.memoryUsage().rss;
  const verdict = verify(file);
  const verifySeconds = (performance.now() - verifyStarted) / 1000;
  const memoryAfter = process.memoryUsage().rss;
  if (!verdict.ok || verdict.records !== RECORDS) throw new Error(`verify said ${JSON.stringify(verdict)}`);
  console.log(
    `verify of ${RECORDS} records (${(statSync(file).size / 1e6).toFixed(0)} MB, written in ${writeSeconds.toFixed(1)} s): ${verifySeconds.toFixed(2)} s (target <= 10 s), RSS ${((memoryAfter - memoryBefore) / 1e6).toFixed(0)} MB more`,
  );
  console.log(`load average ${load()} at the end`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
