import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from './support/http-serve.js';
import { temporaryDirectory } from './support/libos-binary.js';

// The official MCP conformance runner against `libos serve --http`, for each revision it names.
// Node 20 lacks the fs.globSync the runner imports: register-fs-glob.mjs supplies it to the runner
// alone (a test tool; nothing of it ships). Each revision's baseline lists, with a reason per line,
// the checks only the SDKs' "everything" server (diagnostic tools, prompts, resources) can pass.
const RUNNER = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');
const HOOK = fileURLToPath(new URL('./conformance/register-fs-glob.mjs', import.meta.url));
const baseline = (revision: string) => fileURLToPath(new URL(`./conformance/expected-failures-${revision}.yml`, import.meta.url));

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let served: ServeProcess;
beforeAll(async () => {
  scratch = await temporaryDirectory('libos-conformance-');
  served = await startServe(['--root', scratch.path]);
});
afterAll(async () => {
  await served?.stop();
  await scratch?.remove();
});

function runConformance(revision: string): Promise<{ status: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    ['--import', HOOK, RUNNER, 'server', '--url', served.url.href, '--requirements', revision, '--expected-failures', baseline(revision)],
    { cwd: scratch.path, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (status) => resolve({ status, output })));
}

describe('the official MCP conformance runner against libos serve --http', () => {
  it.each(['2026-07-28', '2025-11-25'])('passes every applicable check of revision %s', { timeout: 300_000 }, async (revision) => {
    const { status, output } = await runConformance(revision);
    expect(output, output.slice(-4000)).toContain('Baseline check passed: all failures are expected.');
    expect(status).toBe(0);
  });
});
