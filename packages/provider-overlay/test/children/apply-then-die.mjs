// Runs one apply of the overlay at STATE over the workspace ROOT, and SIGKILLs itself at a chosen
// lower call: before call KILL_AT starts, or after it settles (KILL_PHASE). Exits 0 if it finished.
import { createLocalProvider } from '@libos/provider-local';
import { openOverlay } from '@libos/provider-overlay';

const [root, state, mode] = process.argv.slice(2);
const killAt = Number(process.env.KILL_AT ?? '0');
const phase = process.env.KILL_PHASE ?? 'after';
const local = createLocalProvider({ root });
let calls = 0;
const die = () => process.kill(process.pid, 'SIGKILL');
const counted =
  (method) =>
  async (...args) => {
    calls++;
    const call = calls;
    if (call === killAt && phase === 'before') die();
    try {
      return await local[method](...args);
    } finally {
      // After the call settled, whether it returned or threw (a refusal the apply expects).
      if (call === killAt && phase === 'after') die();
    }
  };
const lower = { ...local };
for (const method of ['stat', 'listDirectory', 'readFile', 'writeFile', 'makeDirectory', 'deleteFile', 'deleteDirectory', 'rename'])
  lower[method] = counted(method);
lower.hostPath = local.hostPath;
const overlay = await openOverlay({ lower, state });
calls = 0;
const result = await overlay.apply({ mode });
await overlay.close();
await local.close();
process.stdout.write(`${JSON.stringify({ calls, result })}\n`);
