// Run in a fresh process by list-large-directory.mjs: lists one directory one way and prints the
// heap retained and the peak RSS growth, so each measurement starts from the same clean state.
import { readdir } from 'node:fs/promises';
import { createLocalProvider } from '@libos/provider-local';

const [variant, root] = process.argv.slice(2);
const provider = createLocalProvider({ root });
// Warm the code paths on a tiny listing so their code is not counted as data.
await provider.listDirectory('.', { limit: 1 });
globalThis.gc();
const heapBefore = process.memoryUsage().heapUsed;
const peakBefore = process.resourceUsage().maxRSS;
const result = variant === 'provider' ? await provider.listDirectory('.', { limit: 1000 }) : await readdir(root);
const peakAfter = process.resourceUsage().maxRSS;
globalThis.gc();
const retained = process.memoryUsage().heapUsed - heapBefore;
const count = Array.isArray(result) ? result.length : result.entries.length;
console.log(JSON.stringify({ count, retainedMiB: retained / 1024 / 1024, peakRssGrowthMiB: (peakAfter - peakBefore) / 1024 }));
await provider.close();
