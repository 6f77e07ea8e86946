// One call on the overlay at STATE over the workspace ROOT from another process, as a second
// server or a person's command would make it: `write PATH TEXT`, `delete PATH` or `discard`.
import { resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { openOverlay } from '@libos/provider-overlay';

const [root, state, op, name, text] = process.argv.slice(2);
const lower = createLocalProvider({ root });
const overlay = await openOverlay({ lower, state });
const path = name === undefined ? undefined : resolveWorkspacePath(ROOT_PATH, name);
if (op === 'write') await overlay.provider.writeFile(path, new TextEncoder().encode(text), { overwrite: true });
else if (op === 'delete') await overlay.provider.deleteFile(path, { missingOk: false });
else if (op === 'discard') await overlay.discard();
else throw new Error(`unknown op ${op}`);
await overlay.close();
await lower.close();
