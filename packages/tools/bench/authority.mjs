// The cost of the authority engine on the hottest call: read_text_file of a small file through a
// runtime whose policy holds 200 grants, against the same runtime with no policy (target <= 1.2x).
import { performance } from 'node:perf_hooks';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';

const BATCH = 250;
const BATCHES = 60;
const TARGET = 'projects/app/docs/guide/readme.txt';

// 200 grants spread over many paths, the way a large policy would look: trees and exact files,
// every mode, some with uses, several of them on the target's ancestors.
function largePolicy() {
  const grants = [];
  for (let index = 0; grants.length < 196; index++) {
    const area = `area-${index % 40}`;
    grants.push({ path: `${area}/part-${index}`, tree: index % 3 !== 0, rights: ['read', 'write'] });
    grants.push({ path: `${area}/file-${index}.txt`, rights: ['write'], mode: index % 2 === 0 ? 'ask' : 'deny' });
    grants.push({ path: `${area}/limited-${index}`, rights: ['delete'], uses: 5 + index });
    grants.push({ path: `projects/other-${index}`, tree: true, rights: ['read', 'delete'], mode: index % 5 === 0 ? 'deny' : 'allow' });
  }
  grants.push({ path: '.', tree: true, rights: ['read'] });
  grants.push({ path: 'projects', tree: true, rights: ['read', 'write'] });
  grants.push({ path: 'projects/app/docs', tree: true, rights: ['read'] });
  grants.push({ path: 'projects/app/docs/private', tree: true, rights: ['read'], mode: 'deny' });
  return { grants };
}

async function processWith(config) {
  const provider = createMemfsProvider();
  await provider.writeFile(TARGET, new TextEncoder().encode('A small file.\n'), { overwrite: true });
  const runtime = await createRuntime({ provider, config });
  return runtime.spawn();
}

async function timeCalls(process) {
  const start = performance.now();
  for (let index = 0; index < BATCH; index++) {
    const outcome = await process.call('read_text_file', { path: TARGET });
    if (!outcome.ok) throw new Error(`read_text_file failed: ${JSON.stringify(outcome.error)}`);
  }
  return performance.now() - start;
}

const policy = largePolicy();
if (policy.grants.length !== 200) throw new Error(`expected 200 grants, built ${policy.grants.length}`);
const open = await processWith({});
const guarded = await processWith(policy);

for (let warm = 0; warm < 8; warm++) {
  await timeCalls(open);
  await timeCalls(guarded);
}
// Small alternating batches, so drift in the machine's load falls evenly on both sides.
const times = { open: [], guarded: [] };
for (let batch = 0; batch < BATCHES; batch++) {
  for (const name of batch % 2 === 0 ? ['open', 'guarded'] : ['guarded', 'open']) {
    times[name].push(await timeCalls(name === 'open' ? open : guarded));
  }
}
// Each guarded batch is compared with the open batch run beside it, and the median of those ratios
// is reported, so load from other work on the machine cancels out as far as it can.
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ratio = median(times.guarded.map((ms, batch) => ms / times.open[batch]));
const perCall = (ms) => ((ms * 1000) / BATCH).toFixed(2);
console.log(
  `tools/authority: read_text_file ${perCall(median(times.guarded))} us/call with 200 grants vs ` +
    `${perCall(median(times.open))} us/call with no policy; ratio ${ratio.toFixed(2)}x (target <= 1.2x)`,
);
