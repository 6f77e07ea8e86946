// Opens an overlay at STATE over ROOT as the agent's server does, in a process where better-sqlite3
// is missing (children/open-without-sqlite.cjs); prints the error's code and message.
import { createLocalProvider } from '@libos/provider-local';
import { openOverlay } from '@libos/provider-overlay';

const [root, state] = process.argv.slice(2);
try {
  await openOverlay({ lower: createLocalProvider({ root }), state, lowerRoot: root });
  console.log(JSON.stringify({ opened: true }));
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
}
