import { spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, INITIALIZE, startServe } from './support/http-serve.js';
import { temporaryDirectory } from './support/libos-binary.js';

const isRoot = process.getuid?.() === 0;

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
beforeAll(async () => {
  scratch = await temporaryDirectory();
  root = join(scratch.path, 'private');
  await mkdir(root);
  await writeFile(join(root, 'secret.txt'), 'only mine\n');
  await chmod(join(root, 'secret.txt'), 0o600);
  await chmod(root, 0o700);
});
afterAll(async () => {
  await scratch?.remove();
});

/** What another local user gets from the endpoint: a plain POST as `nobody`, without a token. */
function postAsNobody(url: URL): { status: string; stderr: string } {
  const script = `const r = await fetch(${JSON.stringify(url.href)}, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: ${JSON.stringify(JSON.stringify(INITIALIZE))} }); console.log(r.status);`;
  const run = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8', cwd: '/' });
  return { status: run.stdout.trim(), stderr: run.stderr };
}

describe('libos serve --http with no token given', () => {
  it('generates one, prints it in the start-up line, and refuses a request without it', async () => {
    const server = await startServe(['--root', root, '--no-single-user']);
    try {
      expect(server.token).toMatch(/^[\w-]{32}$/u);
      expect(server.stderr()).toContain(`(bearer token required, generated for this run: ${server.token})`);
      const refused = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(INITIALIZE) });
      expect(refused.status).toBe(401);
      const owner = await connectHttp(server.url, { token: server.token! });
      const read = await owner.call('read_text_file', { path: 'secret.txt' });
      expect(read.structuredContent).toMatchObject({ content: 'only mine\n' });
      await owner.client.close();
    } finally {
      await server.stop();
    }
  });

  // Running a client as another user takes root (runuser); elsewhere this one is skipped.
  it.skipIf(!isRoot)('turns away another local user (nobody, through runuser; needs root) who cannot read the 0600 file itself', async () => {
    const server = await startServe(['--root', root, '--no-single-user']);
    try {
      expect(spawnSync('runuser', ['-u', 'nobody', '--', 'cat', join(root, 'secret.txt')]).status).not.toBe(0);
      const other = postAsNobody(server.url);
      expect(other.stderr).toBe('');
      expect(other.status).toBe('401');
    } finally {
      await server.stop();
    }
  });

  it('serves without a token only with --single-user, and says so', async () => {
    const server = await startServe(['--root', root]);
    try {
      expect(server.token).toBeUndefined();
      expect(server.stderr()).toContain('without a token (--single-user: no other local user can connect to this machine)');
    } finally {
      await server.stop();
    }
  });
});
