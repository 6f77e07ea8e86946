import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pg from 'pg';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { balancerMissing, startBalancer } from './support/balancer.js';
import { startServe, type ServeProcess } from './support/http-serve.js';
import { temporaryDirectory } from './support/libos-binary.js';

const postgresUrl = inject('postgresUrl');
const missing = [inject('postgresMissing'), balancerMissing].filter((reason) => reason !== '').join('; ');

/** A database of its own for one test, dropped at the end. */
async function freshDatabase(): Promise<string> {
  const name = `libos_fleet_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  onTestFinished(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function fileWith(name: string, text: string): Promise<string> {
  const directory = await temporaryDirectory();
  onTestFinished(() => directory.remove());
  const file = join(directory.path, name);
  await writeFile(file, text);
  return file;
}

/** `count` instances of `libos serve` on one database (workspace, Objects, state), each with `token`. */
async function fleet(database: string, token: string, count: number, config: object, extra: readonly string[] = []): Promise<ServeProcess[]> {
  const flags = [
    ...extra,
    ...['--provider', 'postgres', '--database', database, '--workspace', 'team'],
    ...['--state', database, '--config', await fileWith('libos.config.json', JSON.stringify(config))],
    ...['--token-file', await fileWith('token', `${token}\n`)],
  ];
  const instances: ServeProcess[] = [];
  // One at a time: the first creates the schemas, the others find them.
  for (let index = 0; index < count; index++) instances.push(await startServe(flags));
  onTestFinished(() => Promise.allSettled(instances.map((instance) => instance.stop('SIGKILL'))).then(() => undefined));
  return instances;
}

/** An SDK v2 client on 2026-07-28 that talks only to `url`, recording which instance answered each request. */
async function agent(url: URL, token: string) {
  const servedBy: string[] = [];
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const instance = response.headers.get('x-served-by');
      if (instance !== null) servedBy.push(instance);
      return response;
    },
  });
  const client = new Client({ name: 'fleet-agent', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  onTestFinished(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return {
      isError: result.isError === true,
      value: result.isError === true ? failureOf(result) : (result.structuredContent as Record<string, unknown>),
    };
  };
  return { servedBy, call };
}

function failureOf(result: { content?: unknown }): Record<string, unknown> {
  const [block] = result.content as { text: string }[];
  return (JSON.parse(block!.text) as { error: Record<string, unknown> }).error;
}

const CONFIG = {
  policy_id: 'fleet',
  grants: [
    { path: '.', tree: true, rights: ['read'] },
    { path: 'out', tree: true, rights: ['write'], uses: 3 },
  ],
};

(missing === '' ? describe : describe.skip)(`libos serve --state, a fleet behind HAProxy${missing === '' ? '' : ` (skipped: ${missing})`}`, () => {
  it('serves one agent whose calls alternate instances: cwd, Objects and grant uses hold, and an instance SIGKILLed loses nothing', async () => {
    const database = await freshDatabase();
    const token = randomBytes(16).toString('hex');
    const instances = await fleet(database, token, 3, CONFIG);
    const balancer = await startBalancer(instances.map((instance) => instance.url.host));
    onTestFinished(() => balancer.stop());
    const { servedBy, call } = await agent(balancer.url, token);

    expect((await call('write_text_file', { path: 'out/a.txt', content: 'alpha' })).isError).toBe(false);
    const started = await call('set_working_directory', { path: 'out' });
    expect(started.value).toMatchObject({ working_directory: 'out' });
    const handle = started.value.process as string;
    const created = await call('create_object_from_file', { process: handle, name: 'kept', path: 'a.txt' });
    expect(created.isError).toBe(false);
    for (let round = 0; round < 6; round++) {
      expect((await call('get_working_directory', { process: handle })).value).toEqual({ working_directory: 'out', process: handle });
      expect((await call('read_text_file', { process: handle, path: 'a.txt' })).value).toMatchObject({ path: 'out/a.txt', content: 'alpha' });
    }
    // Every instance served this agent.
    expect(new Set(servedBy).size).toBe(3);

    // One instance dies without a word while calls are in flight; the others have everything this agent needs.
    const inFlight = Promise.allSettled(Array.from({ length: 6 }, () => call('read_text_file', { process: handle, path: 'a.txt' })));
    await instances[1]!.stop('SIGKILL');
    await inFlight;
    for (let round = 0; round < 4; round++) {
      expect((await call('get_working_directory', { process: handle })).value).toEqual({ working_directory: 'out', process: handle });
    }
    const exported = await call('write_object_to_file', { process: handle, name: 'kept', path: 'b.txt' });
    expect(exported.value).toMatchObject({ oid: created.value.oid, path: 'out/b.txt' });
    // uses: 3 on out/ across the whole fleet: a.txt, b.txt, then one more, and never a fourth.
    expect((await call('write_text_file', { process: handle, path: 'c.txt', content: 'c' })).isError).toBe(false);
    const fourth = await call('write_text_file', { process: handle, path: 'd.txt', content: 'd' });
    expect(fourth).toMatchObject({ isError: true, value: { code: 'denied' } });
  });

  it('refuses a handle to another principal on the same database exactly as a guessed one, both ways', async () => {
    const database = await freshDatabase();
    const [alice, mallory] = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')];
    const ours = await fleet(database, alice, 2, { policy_id: 'fleet' });
    const theirs = await fleet(database, mallory, 1, { policy_id: 'fleet' });
    const balancer = await startBalancer(ours.map((instance) => instance.url.host));
    onTestFinished(() => balancer.stop());
    const owner = await agent(balancer.url, alice);
    const handle = (await owner.call('set_working_directory', { path: '.' })).value.process as string;
    const attacker = await agent(theirs[0]!.url, mallory);
    const stolen = await attacker.call('get_working_directory', { process: handle });
    const guessed = await attacker.call('get_working_directory', { process: `proc_${randomBytes(24).toString('base64url')}` });
    expect(stolen).toEqual(guessed);
    expect(stolen).toMatchObject({ isError: true, value: { code: 'denied', details: {} } });
    // Mallory's own handle works for her, and for Alice it does not exist either.
    const theirsHandle = (await attacker.call('set_working_directory', { path: '.' })).value.process as string;
    expect(await owner.call('get_working_directory', { process: theirsHandle })).toEqual(
      await owner.call('get_working_directory', { process: `proc_${'A'.repeat(32)}` }),
    );
    expect(JSON.stringify(stolen)).not.toContain(handle);
    // The owner still has it, on every instance.
    for (let round = 0; round < 2; round++) {
      expect((await owner.call('get_working_directory', { process: handle })).value).toEqual({ working_directory: '.', process: handle });
    }
  });

  it('refuses an expired handle on every instance exactly as one that never existed', async () => {
    const database = await freshDatabase();
    const token = randomBytes(16).toString('hex');
    const instances = await fleet(database, token, 2, { policy_id: 'fleet' }, ['--session-idle-seconds', '1']);
    const balancer = await startBalancer(instances.map((instance) => instance.url.host));
    onTestFinished(() => balancer.stop());
    const { call } = await agent(balancer.url, token);
    const handle = (await call('set_working_directory', { path: '.' })).value.process as string;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const never = await call('get_working_directory', { process: `proc_${'B'.repeat(32)}` });
    for (let round = 0; round < 2; round++) expect(await call('get_working_directory', { process: handle })).toEqual(never);
  });

  it('asks for an approval on one instance and takes the approved retry on another, once', async () => {
    const database = await freshDatabase();
    const token = randomBytes(16).toString('hex');
    const config = {
      policy_id: 'fleet',
      grants: [
        { path: '.', tree: true, rights: ['read', 'write'] },
        { path: 'gated', tree: true, rights: ['write'], mode: 'ask' },
      ],
    };
    const instances = await fleet(database, token, 2, config);
    const balancer = await startBalancer(instances.map((instance) => instance.url.host));
    onTestFinished(() => balancer.stop());
    const { call: sdkCall } = await agent(balancer.url, token);
    expect((await sdkCall('read_directory', { path: '.' })).isError).toBe(false);
    let next = 0;
    const raw = async (args: unknown, extra: Record<string, unknown> = {}) => {
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw-fleet', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      };
      const body = {
        jsonrpc: '2.0',
        id: `r${next++}`,
        method: 'tools/call',
        params: { name: 'write_text_file', arguments: args, ...extra, _meta: meta },
      };
      const response = await fetch(balancer.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'write_text_file',
        },
        body: JSON.stringify(body),
      });
      return {
        servedBy: response.headers.get('x-served-by'),
        json: (await response.json()) as { result?: Record<string, unknown>; error?: { code: number } },
      };
    };
    const write = { path: 'gated/a.txt', content: 'approved\n' };
    const first = await raw(write);
    expect(first.json.result?.resultType).toBe('input_required');
    const accept = { inputResponses: { approval: { action: 'accept', content: {} } }, requestState: first.json.result?.requestState };
    const retried = await raw(write, accept);
    expect(retried.servedBy).not.toBe(first.servedBy);
    expect(retried.json.result?.structuredContent).toMatchObject({ path: 'gated/a.txt', created: true });
    // The same state again, on the instance that sealed it: used already, refused, nothing written twice.
    const replayed = await raw(write, accept);
    expect(replayed.json.error?.code).toBe(-32602);
  });
});
