import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { alternate } from './alternate.mjs';
import { connectServer } from './connect-server.mjs';
import { lstatFloor } from './lstat-floor.mjs';
import { HEAD_BYTES, LINE_BYTES, LIST_WITH_SIZES, SMALL_BYTES } from './make-fixtures.mjs';
import { median } from './median.mjs';
import { peakRss } from './peak-rss.mjs';

const MB = 1024 * 1024;
const textOf = (result) => result.content?.[0]?.text ?? '';

/** Fails the run when a call that should succeed did not, so that no failure is timed as a success. */
async function expectOk(label, reply) {
  const result = await reply;
  if (result.isError) throw new Error(`${label} failed: ${textOf(result).slice(0, 300)}`);
  return result;
}

/** The reference servers every scenario runs beside ours: 2026.8.31 (the targets' baseline) and 2.x. */
const REFERENCES = ['theirs', 'theirs_v2'];

/** One body per reference server, each calling `call(server)` on its own connection and failing loudly. */
function onReferences(servers, label, call) {
  return Object.fromEntries(REFERENCES.map((kind) => [kind, () => expectOk(`${kind} ${label}`, call(servers[kind]))]));
}

/** Spawn + initialize of each server, alternating; also each one's peak RSS right after start. */
export async function benchStart(root, rounds) {
  const rss = { ours: [], theirs: [], theirs_v2: [] };
  const startOf = (kind) => async () => {
    const started = performance.now();
    const server = await connectServer(kind, root);
    const elapsed = performance.now() - started;
    rss[kind].push(peakRss(server.pid));
    await server.close();
    return elapsed;
  };
  const times = await alternate({ ours: startOf('ours'), theirs: startOf('theirs'), theirs_v2: startOf('theirs_v2') }, { rounds, warmup: 1 });
  return [
    { id: 'start', label: 'start + initialize', unit: 'ms', ...times, target: 0.8 },
    {
      id: 'rss-idle',
      label: 'peak RSS after start',
      unit: 'MB',
      ours: median(rss.ours) / MB,
      theirs: median(rss.theirs) / MB,
      theirs_v2: median(rss.theirs_v2) / MB,
    },
  ];
}

/** Per-call latencies with both servers (and the stub floor) connected for the whole scenario. */
export async function benchCalls(root, scale) {
  const ours = await connectServer('ours', root);
  const references = Object.fromEntries(await Promise.all(REFERENCES.map(async (kind) => [kind, await connectServer(kind, root)])));
  const content = 'w'.repeat(SMALL_BYTES - 1) + '\n';
  const rows = [];
  try {
    // The floor of the small read: a stub answering our own reply to it, doing no work per call.
    const readReply = await expectOk('ours read', ours.call('read_text_file', { path: 'small.txt' }));
    const readReplyFile = join(root, 'stub-read-reply.json');
    writeFileSync(readReplyFile, JSON.stringify({ content: readReply.content, structuredContent: readReply.structuredContent }));
    const readStub = await connectServer('stub', readReplyFile);
    let read;
    try {
      read = await alternate(
        {
          ours: () => expectOk('ours read', ours.call('read_text_file', { path: 'small.txt' })),
          ...onReferences(references, 'read', (server) => server.call('read_text_file', { path: join(root, 'small.txt') })),
          stub: () => expectOk('stub read', readStub.call('read_text_file', {})),
        },
        { rounds: 25 * scale, calls: 4, warmup: 20 },
      );
    } finally {
      await readStub.close();
    }
    rows.push({
      id: 'read-100',
      label: `read ${SMALL_BYTES} B (per call)`,
      unit: 'ms',
      ours: read.ours,
      theirs: read.theirs,
      theirs_v2: read.theirs_v2,
      target: 0.8,
    });
    rows.push({
      id: 'read-100-stub',
      label: 'same read, stub answering our precomputed reply',
      unit: 'ms',
      ours: read.stub,
      theirs: read.theirs,
      target: null,
    });

    const write = await alternate(
      {
        ours: () => expectOk('ours write', ours.call('write_text_file', { path: 'write-ours.txt', content })),
        ...onReferences(references, 'write', (server) => server.call('write_file', { path: join(root, 'write-theirs.txt'), content })),
      },
      { rounds: 20 * scale, calls: 3, warmup: 10 },
    );
    rows.push({ id: 'write-100', label: `write ${SMALL_BYTES} B (per call; ours durable, theirs not)`, unit: 'ms', ...write, target: null });

    const listOurs = () => expectOk('ours list', ours.call('read_directory', { path: 'sizes', limit: LIST_WITH_SIZES }));
    const listings = onReferences(references, 'list', (server) => server.call('list_directory_with_sizes', { path: join(root, 'sizes') }));
    const listTheirs = listings.theirs;
    const ourReply = await listOurs();
    const theirReply = await listTheirs();
    if (ourReply.structuredContent.count !== LIST_WITH_SIZES) throw new Error(`ours listed ${ourReply.structuredContent.count} entries`);
    const replyFile = join(root, 'stub-reply.json');
    writeFileSync(replyFile, JSON.stringify({ content: ourReply.content, structuredContent: ourReply.structuredContent }));
    const stub = await connectServer('stub', replyFile);
    try {
      const list = await alternate(
        {
          ours: listOurs,
          ...listings,
          stub: () => expectOk('stub list', stub.call('read_directory', {})),
          lstats: () => void lstatFloor(join(root, 'sizes')),
        },
        { rounds: 8 * scale, warmup: 1 },
      );
      rows.push({
        id: 'list-10k-sizes',
        label: `list ${LIST_WITH_SIZES.toLocaleString('en')} files with sizes`,
        unit: 'ms',
        ours: list.ours,
        theirs: list.theirs,
        theirs_v2: list.theirs_v2,
        target: 0.35,
        extra: { reply_chars_ours: textOf(ourReply).length, reply_chars_theirs: textOf(theirReply).length },
      });
      rows.push({
        id: 'list-10k-stub',
        label: 'same listing, stub answering our precomputed reply',
        unit: 'ms',
        ours: list.stub,
        theirs: list.theirs,
        target: null,
      });
      rows.push({
        id: 'list-10k-lstat-floor',
        label: 'same names read and lstat-ed by plain Node (relative names, in process)',
        unit: 'ms',
        ours: list.lstats,
        theirs: list.theirs,
        target: null,
      });
      // No server of this reply can beat carrying it plus stat-ing its entries: the sum of the two floors.
      rows.push({
        id: 'list-10k-floor-sum',
        label: 'stub reply + plain-Node lstats (sum of the two medians): the floor of a listing of our shape',
        unit: 'ms',
        ours: list.stub + list.lstats,
        theirs: list.theirs,
        target: null,
      });
    } finally {
      await stub.close();
    }

    const large = await alternate(
      {
        ours: () => expectOk('ours list large', ours.call('read_directory', { path: 'large', limit: 1000 })),
        ...onReferences(references, 'list large', (server) => server.call('list_directory', { path: join(root, 'large') })),
      },
      { rounds: 8 * scale, warmup: 1 },
    );
    rows.push({ id: 'list-100k', label: 'list 100,000 files (ours limit 1000, theirs whole)', unit: 'ms', ...large, target: 0.8 });

    const head = await alternate(
      {
        ours: () => expectOk('ours head', ours.call('read_text_file', { path: 'lines.txt', max_bytes: HEAD_BYTES })),
        ...onReferences(references, 'head', (server) =>
          server.call('read_text_file', { path: join(root, 'lines.txt'), head: HEAD_BYTES / LINE_BYTES }),
        ),
      },
      { rounds: 20 * scale, calls: 2, warmup: 2 },
    );
    rows.push({ id: 'head-64k', label: '64 KiB of a 200 MB file (theirs head)', unit: 'ms', ...head, target: 1 });
  } finally {
    await ours.close();
    for (const server of Object.values(references)) await server.close();
  }
  return rows;
}

/**
 * Peak RSS (VmHWM) of a fresh server of each kind after one operation, alternating, median of
 * `rounds`; the time of that operation comes along. The reference server may fail the 1 GiB read
 * (a string that long cannot exist in V8): that is measured as it happens, and its answer reported.
 */
export async function benchPeakRss(root, rounds) {
  const scenarios = [
    {
      id: 'list-10k-sizes',
      label: `peak RSS, ${LIST_WITH_SIZES.toLocaleString('en')}-file listing`,
      target: 0.7,
      ours: (server) => expectOk('ours list', server.call('read_directory', { path: 'sizes', limit: LIST_WITH_SIZES })),
      theirs: (server) => expectOk('theirs list', server.call('list_directory_with_sizes', { path: join(root, 'sizes') })),
    },
    {
      id: 'read-1gib',
      label: 'default read of a 1 GiB sparse file',
      target: 0.5,
      ours: (server) => expectOk('ours read 1 GiB', server.call('read_text_file', { path: 'sparse.bin' })),
      theirs: (server) => server.call('read_text_file', { path: join(root, 'sparse.bin') }),
    },
  ];
  const rows = [];
  for (const scenario of scenarios) {
    const rss = { ours: [], theirs: [], theirs_v2: [] };
    const answers = {};
    const runOf = (kind) => async () => {
      const server = await connectServer(kind, root);
      try {
        const started = performance.now();
        // Both reference servers take the same call: 2.x kept 2026.8.31's tool names and arguments.
        const result = await scenario[kind === 'ours' ? 'ours' : 'theirs'](server);
        const elapsed = performance.now() - started;
        rss[kind].push(peakRss(server.pid));
        answers[kind] = result.isError ? `failed: ${textOf(result).slice(0, 120)}` : `ok, ${textOf(result).length} characters`;
        return elapsed;
      } finally {
        await server.close();
      }
    };
    const times = await alternate({ ours: runOf('ours'), theirs: runOf('theirs'), theirs_v2: runOf('theirs_v2') }, { rounds });
    if (scenario.id === 'read-1gib') {
      rows.push({ id: 'read-1gib-time', label: `${scenario.label} (time, fresh server)`, unit: 'ms', ...times, target: 1, extra: answers });
    }
    rows.push({
      id: `rss-${scenario.id}`,
      label: scenario.id === 'read-1gib' ? `peak RSS, ${scenario.label}` : scenario.label,
      unit: 'MB',
      ours: median(rss.ours) / MB,
      theirs: median(rss.theirs) / MB,
      theirs_v2: median(rss.theirs_v2) / MB,
      target: scenario.target,
    });
  }
  return rows;
}
