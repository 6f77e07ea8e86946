// Runs one apply of the overlay at STATE over the workspace ROOT, and SIGKILLs itself at a chosen
// lower call: before call KILL_AT starts, or after it returns (KILL_PHASE). Exits 0 if it finished.
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
    if (calls === killAt && phase === 'before') die();
    const result = await local[method](...args);
    if (calls === killAt && phase === 'after') die();
    return result;
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
