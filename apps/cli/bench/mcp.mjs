// Bench of `libos mcp` over stdio: start-up (spawn + initialize, target < 300 ms median) and the
// latency of a small read_text_file call. Run `npx tsup` first (root `pnpm bench` builds everything).
// Baselines, measured in the same run: a bare SDK low-level Server for start-up, an in-process
// runtime call for latency.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRuntime } from '@libos/tools';
import { createMemfsProvider } from '@libos/provider-memfs';

const LIBOS = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const START_RUNS = 10;
const CALL_RUNS = 200;

// The note's sketch reduced to nothing: what the SDK alone costs to start.
const BARE_SERVER = join(fileURLToPath(new URL('.', import.meta.url)), '.bare-server.mjs');
writeFileSync(
  BARE_SERVER,
  `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 'bare', version: '0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
process.stdin.once('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
`,
);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function connect(args) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  return client;
}

async function startTime(args) {
  const started = performance.now();
  const client = await connect(args);
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed;
}

// Interleaved, so that a change in machine load hits every command alike.
async function startTimes(...commands) {
  const times = commands.map(() => []);
  for (let run = 0; run < START_RUNS; run += 1) {
    for (const [index, args] of commands.entries()) times[index].push(await startTime(args));
  }
  return times.map(median);
}

async function callTimes(call) {
  for (let run = 0; run < 20; run += 1) await call(); // warm-up
  const times = [];
  for (let run = 0; run < CALL_RUNS; run += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times;
}

try {
  const [bareStart, memfsStart, localStart] = await startTimes(
    [BARE_SERVER],
    [LIBOS, 'mcp', '--provider', 'memfs'],
    [LIBOS, 'mcp', '--root', fileURLToPath(new URL('.', import.meta.url))],
  );
  const ratio = (value) => `ratio ${(value / bareStart).toFixed(2)}x vs bare SDK`;
  console.log(`mcp start (spawn + initialize), median of ${START_RUNS}:`);
  console.log(`  bare SDK server        ${bareStart.toFixed(1)} ms`);
  console.log(`  libos mcp (memfs)      ${memfsStart.toFixed(1)} ms (target < 300 ms)  ${ratio(memfsStart)}`);
  console.log(`  libos mcp (local disk) ${localStart.toFixed(1)} ms (target < 300 ms)  ${ratio(localStart)}`);

  const seed = { path: 'small.txt', content: 'a small file for the latency bench\n' };
  const client = await connect([LIBOS, 'mcp', '--provider', 'memfs']);
  await client.callTool({ name: 'write_text_file', arguments: seed });
  const overStdio = median(await callTimes(() => client.callTool({ name: 'read_text_file', arguments: { path: seed.path } })));
  await client.close();

  const runtime = await createRuntime({ provider: createMemfsProvider() });
  const agent = runtime.spawn();
  await agent.call('write_text_file', seed);
  const inProcess = median(await callTimes(() => agent.call('read_text_file', { path: seed.path })));
  await runtime.close();

  console.log(`read_text_file of ${seed.content.length} bytes, median of ${CALL_RUNS}:`);
  console.log(`  in-process call ${(inProcess * 1000).toFixed(0)} µs`);
  console.log(`  over MCP stdio  ${(overStdio * 1000).toFixed(0)} µs  ratio ${(overStdio / inProcess).toFixed(2)}x vs in-process`);
} finally {
  rmSync(BARE_SERVER, { force: true });
}
