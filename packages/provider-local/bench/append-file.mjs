// Appending 10 bytes to a 200 MB file against appending them to a 10-byte file: the cost must be
// that of the bytes added (target: the same within 1.5x), through the provider and through the tool.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalProvider } from '@libos/provider-local';
import { compare, loadTools, report, scratch } from './bench-util.mjs';

const LINE = new TextEncoder().encode('0123456789');

export async function benchAppendFile() {
  const { base, done } = scratch('append');
  try {
    // Real bytes, not a sparse file: a copy or a read of the old content would show at once.
    writeFileSync(join(base, 'large.log'), Buffer.alloc(200 * 1000 * 1000, 0x61));
    writeFileSync(join(base, 'small.log'), '0123456789');
    const provider = createLocalProvider({ root: base });
    try {
      const times = await compare({
        ours: () => provider.appendFile('large.log', LINE, { create: false }),
        baseline: () => provider.appendFile('small.log', LINE, { create: false }),
        rounds: 9,
        callsPerRound: 20,
      });
      report('appendFile of 10 bytes, 200 MB file vs 10-byte file', times, 1.5);
    } finally {
      await provider.close();
    }
    const tools = await loadTools();
    if (tools === undefined) return;
    const runtime = await tools.createRuntime({ provider: createLocalProvider({ root: base }) });
    try {
      const agent = runtime.spawn();
      const append = async (path) => {
        const outcome = await agent.call('append_text_file', { path, content: '0123456789' });
        if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
      };
      const times = await compare({ ours: () => append('large.log'), baseline: () => append('small.log'), rounds: 9, callsPerRound: 20 });
      report('append_text_file of 10 bytes, 200 MB file vs 10-byte file', times, 1.5);
    } finally {
      await runtime.close();
    }
  } finally {
    done();
  }
}
