import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, startServe } from './support/http-serve.js';
import { LIBOS_BIN, runLibos, temporaryDirectory } from './support/libos-binary.js';
import { startMcpSession, type ElicitationAnswer } from './support/mcp-session.js';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let configFile: string;
beforeAll(async () => {
  scratch = await temporaryDirectory('libos-audit-cli-');
  root = join(scratch.path, 'workspace');
  await mkdir(join(root, 'gated'), { recursive: true });
  await writeFile(join(root, 'notes.txt'), 'hello');
  configFile = join(scratch.path, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      grants: [
        { path: '.', tree: true, rights: ['read', 'write'] },
        { path: 'gated', tree: true, rights: ['write'], mode: 'ask' },
      ],
    }),
  );
});
afterAll(async () => {
  await scratch?.remove();
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const recordsOf = async (file: string) =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe('libos audit keygen, verify and show', () => {
  it('records a call, verifies its signed log and shows it as a table', async () => {
    const key = join(scratch.path, 'key');
    const made = await runLibos(['audit', 'keygen', key]);
    expect(made.status).toBe(0);
    expect((await stat(key)).mode & 0o777).toBe(0o600);
    expect(await readFile(`${key}.pub`, 'utf8')).toContain('BEGIN PUBLIC KEY');
    expect((await runLibos(['audit', 'keygen', key])).status).toBe(1);

    const file = join(scratch.path, 'signed.log');
    const call = await runLibos(['call', 'read_text_file', '{"path":"notes.txt"}', '--root', root, '--audit', file, '--audit-key', key]);
    expect(call.status).toBe(0);
    const verified = await runLibos(['audit', 'verify', file, '--public-key', `${key}.pub`]);
    expect({ status: verified.status, output: JSON.parse(verified.stdout) }).toEqual({
      status: 0,
      output: { ok: true, records: 3, checkpoints: 1, last_seq: 3 },
    });

    const shown = await runLibos(['audit', 'show', file, '--tool', 'read_text_file']);
    expect(shown.status).toBe(0);
    const [header, row, extra] = shown.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^SEQ\s+TIME\s+TOOL\s+PATHS\s+DECISION\s+RESULT\s+MS\s+CLIENT$/);
    expect(row).toMatch(/^2\s+\S+Z\s+read_text_file\s+notes\.txt\s+allowed\s+ok\s+[\d.]+\s+-$/);
    expect(extra).toBeUndefined();
    const json = await runLibos(['audit', 'show', file, '--json', '--path', 'notes.txt']);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).tool),
    ).toEqual(['read_text_file']);
    expect((await runLibos(['audit', 'show', file, '--since', '2999-01-01T00:00:00Z'])).stdout).toBe('no records\n');

    // Any edit of the log is caught, with exit status 1.
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"notes.txt"', '"notes.txu"'));
    const tampered = await runLibos(['audit', 'verify', file]);
    expect({ status: tampered.status, output: JSON.parse(tampered.stdout) }).toEqual({
      status: 1,
      output: { ok: false, first_bad_seq: 2, reason: 'hash_mismatch' },
    });
  });

  it('refuses bad use with exit 2 and one line', async () => {
    const inside = await runLibos(['call', 'read_text_file', '{"path":"notes.txt"}', '--root', root, '--audit', join(root, 'audit.log')]);
    expect(inside.status).toBe(2);
    expect(inside.stderr.trim().split('\n')).toHaveLength(1);
    expect(inside.stderr).toContain('is inside the served directory');
    await expect(stat(join(root, 'audit.log'))).rejects.toThrow();
    // The signing key too: an agent that reads it signs whatever log it likes (also through a link).
    const keyInside = join(root, 'audit.key');
    expect((await runLibos(['audit', 'keygen', keyInside])).status).toBe(0);
    const keyLink = join(scratch.path, 'key-link');
    await symlink(keyInside, keyLink);
    for (const keyFile of [keyInside, keyLink]) {
      const keyed = await runLibos([
        'call',
        'read_text_file',
        '{"path":"notes.txt"}',
        '--root',
        root,
        '--audit',
        join(scratch.path, 'k.log'),
        '--audit-key',
        keyFile,
      ]);
      expect({ status: keyed.status, lines: keyed.stderr.trim().split('\n').length }).toEqual({ status: 2, lines: 1 });
      expect(keyed.stderr).toContain('--audit-key');
      expect(keyed.stderr).toContain('is inside the served directory');
    }
    await expect(stat(join(scratch.path, 'k.log'))).rejects.toThrow();
    await rm(keyInside);
    await rm(`${keyInside}.pub`);
    for (const args of [
      ['call', 'read_text_file', '{}', '--root', root, '--audit-key', 'k'],
      ['audit'],
      ['audit', 'verify'],
      ['audit', 'verify', join(scratch.path, 'missing.log')],
      ['audit', 'show', join(scratch.path, 'x.log'), '--since', 'yesterday'],
      ['audit', 'keygen', join(scratch.path, 'k2'), '--json'],
    ]) {
      const run = await runLibos(args);
      expect({ args, status: run.status, lines: run.stderr.trim().split('\n').length }).toEqual({ args, status: 2, lines: 1 });
    }
  });
});

describe('libos mcp --audit', () => {
  it('records an ask approved, rejected and unanswered over elicitation, with the client and what it was shown', async () => {
    const file = join(scratch.path, 'mcp.log');
    const answers: [ElicitationAnswer, string][] = [
      ['accept', 'approved'],
      ['decline', 'rejected'],
      ['cancel', 'unanswered'],
    ];
    const shown: string[] = [];
    for (const [answer] of answers) {
      const session = await startMcpSession(['--root', root, '--config', configFile, '--audit', file], answer);
      try {
        await session.call('write_text_file', { path: `gated/${answer}.txt`, content: 'secret body' });
        shown.push(session.elicitations[0]!.message);
      } finally {
        await session.close();
      }
    }
    const calls = (await recordsOf(file)).filter((record) => record.tool === 'write_text_file');
    expect(calls.map((record) => [record.client, record.paths, record.decision.approval.answer, record.result.ok])).toEqual([
      [{ name: 'libos-cli-test', version: '0.0.0' }, ['gated/accept.txt'], 'approved', true],
      [{ name: 'libos-cli-test', version: '0.0.0' }, ['gated/decline.txt'], 'rejected', false],
      [{ name: 'libos-cli-test', version: '0.0.0' }, ['gated/cancel.txt'], 'unanswered', false],
    ]);
    // The hash of the question the person saw (the elicitation prefixes it with "libos: ").
    calls.forEach((record, index) => expect(record.decision.approval.shown_sha256).toBe(sha(shown[index]!.replace(/^libos: /, ''))));
    expect(calls[0].effects).toEqual([{ path: 'gated/accept.txt', before_sha256: null, after_sha256: sha('secret body'), size_bytes: 11 }]);
    expect(await readFile(file, 'utf8')).not.toContain('secret body');
    const verified = await runLibos(['audit', 'verify', file]);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, checkpoints: 3 });
  });

  it("libos serve --audit names the MCP session and client in each record, with the session's start and end", async () => {
    const file = join(scratch.path, 'serve.log');
    const key = join(scratch.path, 'serve.key');
    expect((await runLibos(['audit', 'keygen', key])).status).toBe(0);
    const server = await startServe(['--root', root, '--audit', file, '--audit-key', key]);
    let sessionId: string | undefined;
    try {
      const connection = await connectHttp(server.url);
      await connection.call('read_text_file', { path: 'notes.txt' });
      await connection.call('list_directory', { path: '.' });
      sessionId = connection.transport.sessionId;
      // Ended by DELETE: its end record follows the records of its calls.
      await connection.transport.terminateSession();
      await connection.client.close();
      const client = { name: 'libos-http-test', version: '0.0.0' };
      await expect
        .poll(async () => (await recordsOf(file)).filter((record) => record.session === sessionId).map((record) => [record.tool, record.client]), {
          timeout: 10_000,
        })
        .toEqual([
          ['session_start', client],
          ['read_text_file', client],
          ['list_directory', client],
          ['session_end', client],
        ]);
      // The session's end has its signed checkpoint while the server still runs.
      await expect
        .poll(async () => JSON.parse((await runLibos(['audit', 'verify', file, '--public-key', `${key}.pub`])).stdout), { timeout: 10_000 })
        .toMatchObject({ ok: true });
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(JSON.parse((await runLibos(['audit', 'verify', file, '--public-key', `${key}.pub`])).stdout)).toMatchObject({ ok: true });
  });
});

describe('libos with a tracer provider registered in its process', () => {
  it("makes one execute_tool span per call, through the program's own copy of @opentelemetry/api", async () => {
    // The program's copy of the API, not one the bundled CLI could resolve from where it lies.
    const api = createRequire(fileURLToPath(new URL('../../../packages/audit/package.json', import.meta.url))).resolve('@opentelemetry/api');
    const register = join(scratch.path, 'register-tracing.mjs');
    await writeFile(
      register,
      [
        `import { createRequire } from 'node:module';`,
        `import { writeSync } from 'node:fs';`,
        `const { trace } = createRequire(import.meta.url)(${JSON.stringify(api)});`,
        'trace.setGlobalTracerProvider({ getTracer: () => ({ startSpan(name, options) {',
        '  const attributes = { ...options.attributes };',
        '  return { setAttribute(key, value) { attributes[key] = value; }, setStatus() {},',
        "    end() { writeSync(2, 'SPAN ' + JSON.stringify({ name, attributes }) + '\\n'); } };",
        '} }) });',
      ].join('\n'),
    );
    const file = join(scratch.path, 'traced.log');
    const run = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', pathToFileURL(register).href, LIBOS_BIN, 'call', 'read_text_file', '{"path":"notes.txt"}', '--root', root, '--audit', file],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    expect(run.status).toBe(0);
    const spans = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('SPAN '))
      .map((line) => JSON.parse(line.slice(5)));
    expect(spans).toEqual([
      {
        name: 'execute_tool read_text_file',
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read_text_file', 'libos.decision': 'allowed' },
      },
    ]);
  });
});
