// Benchmark of docs/overlay.md "Append and copy" (never a test): node bench/append.mjs (needs a build).
// A 10-byte append to a 32 MiB file must cost about what one to a 1 KiB file costs: the two files
// alternate in short rounds (their order swapping), so a loaded machine's drift falls on both, and
// the ratio is the median of the rounds'.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { openOverlay } from '@libos/provider-overlay';
import Database from 'better-sqlite3';

const BIG = Number(process.env.BENCH_APPEND_BYTES ?? 32 << 20);
const ROUNDS = 20;
const PER_ROUND = 25;
const base = mkdtempSync(join(tmpdir(), 'libos-overlay-append-bench-'));
const root = join(base, 'ws');
const state = join(base, 'bench.overlay');
const path = (name) => resolveWorkspacePath(ROOT_PATH, name);
const ten = new TextEncoder().encode('0123456789');
const stateBytes = () => {
  const db = new Database(state);
  db.pragma('busy_timeout = 20000');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return statSync(state).size;
};
const millis = (start) => Number(process.hrtime.bigint() - start) / 1e6;
try {
  mkdirSync(root);
  writeFileSync(join(root, 'small.log'), Buffer.alloc(1024, 0x61));
  writeFileSync(join(root, 'big.log'), Buffer.alloc(BIG, 0x62));
  const lower = createLocalProvider({ root });
  const overlay = await openOverlay({ lower, state, lowerRoot: root });
  const append = (name) => overlay.provider.appendFile(path(name), ten, { create: false });
  let start = process.hrtime.bigint();
  await append('small.log');
  const firstSmall = millis(start);
  start = process.hrtime.bigint();
  await append('big.log');
  const firstBig = millis(start);
  console.log(
    `first append (streams the lower file once for its base hash): 1 KiB ${firstSmall.toFixed(1)} ms, ${BIG >> 20} MiB ${firstBig.toFixed(1)} ms`,
  );
  const before = stateBytes();
  const ratios = [];
  let smallTotal = 0;
  let bigTotal = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['small.log', 'big.log'] : ['big.log', 'small.log'];
    const spent = {};
    for (const name of order) {
      const at = process.hrtime.bigint();
      for (let index = 0; index < PER_ROUND; index++) await append(name);
      spent[name] = millis(at) / PER_ROUND;
    }
    smallTotal += spent['small.log'];
    bigTotal += spent['big.log'];
    ratios.push(spent['big.log'] / spent['small.log']);
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  const median = (sorted[ROUNDS / 2 - 1] + sorted[ROUNDS / 2]) / 2;
  const grown = stateBytes() - before;
  const appended = 2 * ROUNDS * PER_ROUND * ten.length;
  console.log(
    `10-byte append: 1 KiB file ${((smallTotal / ROUNDS) * 1000).toFixed(0)} us, ${BIG >> 20} MiB file ${((bigTotal / ROUNDS) * 1000).toFixed(0)} us, median ratio ${median.toFixed(2)}x (target about 1x)`,
  );
  console.log(`state growth over ${2 * ROUNDS * PER_ROUND} appends (${appended} bytes appended): ${grown} bytes`);
  await overlay.close();
  await lower.close();
} finally {
  rmSync(base, { recursive: true, force: true });
}
