// Runs one merged apply of the overlay at STATE over ROOT and SIGKILLs itself at lower call KILL_AT
// (before it starts or after it settles, KILL_PHASE); just before dying, the person appends a line to
// LATE_FILE, as someone editing while the apply runs. Exits 0 with the result if it finished.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalProvider } from '@libos/provider-local';
import { openOverlay } from '@libos/provider-overlay';

const [root, state] = process.argv.slice(2);
const killAt = Number(process.env.KILL_AT ?? '0');
const phase = process.env.KILL_PHASE ?? 'after';
const local = createLocalProvider({ root });
let calls = 0;
const die = () => {
  if (process.env.LATE_FILE) appendFileSync(join(root, process.env.LATE_FILE), 'person late\n');
  process.kill(process.pid, 'SIGKILL');
};
const counted =
  (method) =>
  async (...args) => {
    calls++;
    const call = calls;
    if (call === killAt && phase === 'before') die();
    try {
      return await local[method](...args);
    } finally {
      if (call === killAt && phase === 'after') die();
    }
  };
const lower = { ...local };
for (const method of ['stat', 'listDirectory', 'readFile', 'writeFile', 'makeDirectory', 'deleteFile', 'deleteDirectory', 'rename'])
  lower[method] = counted(method);
lower.hostPath = local.hostPath;
const overlay = await openOverlay({ lower, state });
calls = 0;
const result = await overlay.apply({ mode: 'per_file' });
await overlay.close();
await local.close();
process.stdout.write(`${JSON.stringify({ calls, result })}\n`);
