// Bench of `libos mcp --audit` over stdio (target at most 5% added to a 100-byte read_text_file).
// Run `npx tsup` first (root `pnpm bench` builds everything). The baseline, the same server without
// --audit, runs in the same process tree, interleaved round by round so that a change in machine
// load hits both alike; each server serves its own copy of one seed directory on the local disk.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const LIBOS = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const ROUNDS = 15;
const CALLS_PER_ROUND = 300;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function connect(args) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [LIBOS, 'mcp', ...args], stderr: 'pipe' });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  return client;
}

async function round(client) {
  const started = performance.now();
  for (let call = 0; call < CALLS_PER_ROUND; call += 1) {
    const result = await client.callTool({ name: 'read_text_file', arguments: { path: 'small.txt' } });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  }
  return ((performance.now() - started) * 1000) / CALLS_PER_ROUND;
}

const directory = mkdtempSync(join(tmpdir(), 'libos-audit-mcp-bench-'));
try {
  for (const name of ['plain', 'audited']) {
    mkdirSync(join(directory, name));
    writeFileSync(join(directory, name, 'small.txt'), 'x'.repeat(100));
  }
  const plain = await connect(['--root', join(directory, 'plain')]);
  const audited = await connect(['--root', join(directory, 'audited'), '--audit', join(directory, 'audit.log')]);
  await round(plain);
  await round(audited);
  const without = [];
  const withAudit = [];
  for (let index = 0; index < ROUNDS; index += 1) {
    without.push(await round(plain));
    withAudit.push(await round(audited));
  }
  await plain.close();
  await audited.close();
  const base = median(without);
  const cost = median(withAudit);
  console.log(
    `100-byte read over libos mcp stdio (local disk): ${base.toFixed(0)} us without --audit, ${cost.toFixed(0)} us with: ${(((cost - base) / base) * 100).toFixed(1)}% added (target <= 5%)`,
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
