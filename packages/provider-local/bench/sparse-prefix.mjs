// A 64 KiB prefix of a 1 GiB sparse file: time per call and memory, which must stay flat.
import { closeSync, ftruncateSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalProvider } from '@libos/provider-local';
import { median, scratch } from './bench-util.mjs';

export async function benchSparsePrefix() {
  const { base, done } = scratch('sparse');
  try {
    const fd = openSync(join(base, 'huge.bin'), 'w');
    ftruncateSync(fd, 1024 ** 3);
    closeSync(fd);
    const provider = createLocalProvider({ root: base });
    await provider.readFile('huge.bin', { maxBytes: 65536 });
    // Memory after 10 calls and after 1,000: flat means the second adds nothing the first did not.
    const samples = [];
    const times = [];
    let calls = 0;
    for (const target of [10, 5000]) {
      for (; calls < target; calls++) {
        const start = performance.now();
        const read = await provider.readFile('huge.bin', { maxBytes: 65536 });
        times.push(performance.now() - start);
        if (!read.truncated || read.bytes.length !== 65536) throw new Error('expected a 64 KiB truncated read');
      }
      // Backing stores of freed buffers are released by a background sweeper: give it a moment.
      globalThis.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 200));
      globalThis.gc?.();
      const usage = process.memoryUsage();
      samples.push({ calls, retained: (usage.heapUsed + usage.external) / 1024 / 1024, peak: process.resourceUsage().maxRSS / 1024 });
    }
    const [few, many] = samples;
    console.log(
      `64 KiB prefix of a 1 GiB sparse file: median ${median(times).toFixed(3)} ms per call (target < 5 ms); ` +
        `heap+external after GC ${few.retained.toFixed(1)} MiB after ${few.calls} calls, ${many.retained.toFixed(1)} MiB after ${many.calls}; ` +
        `peak RSS ${few.peak.toFixed(0)} -> ${many.peak.toFixed(0)} MiB`,
    );
    await provider.close();
  } finally {
    done();
  }
}
