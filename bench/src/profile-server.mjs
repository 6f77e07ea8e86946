// `node src/profile-server.mjs OPERATION [CALLS]`: runs one operation of the bench CALLS times
// against `libos mcp` started with --cpu-prof, then prints where the server's time went (self time
// by function and by file). OPERATION: list-10k-sizes, list-100k, read-100, head-64k, write-100, start.
// Used to find what to fix when a target is missed; not part of `pnpm bench`.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SERVERS } from './connect-server.mjs';
import { makeFixtures } from './make-fixtures.mjs';

const OPERATIONS = {
  'list-10k-sizes': ['read_directory', { path: 'sizes', limit: 10_000 }],
  'list-100k': ['read_directory', { path: 'large', limit: 1000 }],
  'read-100': ['read_text_file', { path: 'small.txt' }],
  'head-64k': ['read_text_file', { path: 'lines.txt', max_bytes: 65536 }],
  'write-100': ['write_text_file', { path: 'profile.txt', content: 'p'.repeat(99) + '\n' }],
  start: undefined,
};
const [operation = 'list-10k-sizes', callsText = '50'] = process.argv.slice(2);
if (!(operation in OPERATIONS)) throw new Error(`unknown operation ${operation}; one of ${Object.keys(OPERATIONS).join(', ')}`);

const root = await makeFixtures();
const profiles = mkdtempSync(join(tmpdir(), 'libos-profile-'));
try {
  const [script, ...args] = SERVERS.ours(root);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--cpu-prof', '--cpu-prof-dir', profiles, script, ...args],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'libos-profile', version: '0' });
  await client.connect(transport);
  const call = OPERATIONS[operation];
  if (call) {
    for (let index = 0; index < Number(callsText); index++) {
      const result = await client.callTool({ name: call[0], arguments: call[1] }, undefined, { timeout: 600_000 });
      if (result.isError) throw new Error(result.content[0].text);
    }
  }
  await client.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const file = readdirSync(profiles).find((name) => name.endsWith('.cpuprofile'));
  summarize(JSON.parse(readFileSync(join(profiles, file), 'utf8')));
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(profiles, { recursive: true, force: true });
}

function summarize(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const intervals = profile.timeDeltas;
  for (let index = 0; index < profile.samples.length; index++) {
    self.set(profile.samples[index], (self.get(profile.samples[index]) ?? 0) + (intervals[index] ?? 0));
  }
  const total = [...self.values()].reduce((sum, value) => sum + value, 0);
  const byFunction = new Map();
  const byFile = new Map();
  for (const [id, micros] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const file = url.replace(/^.*node_modules\/\.pnpm\/([^/]+)\/.*$/, '$1').replace(/^.*\/(apps|packages)\//, '$1/') || '(native)';
    const name = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    byFile.set(file, (byFile.get(file) ?? 0) + micros);
  }
  const print = (title, map, count) => {
    console.log(title);
    for (const [name, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      console.log(`  ${(micros / 1000).toFixed(1).padStart(9)} ms ${((100 * micros) / total).toFixed(1).padStart(5)}%  ${name}`);
    }
  };
  console.log(`server CPU profile, ${operation}: ${(total / 1000).toFixed(0)} ms sampled`);
  print('self time by function:', byFunction, 25);
  print('self time by file:', byFile, 12);
}
