#!/usr/bin/env node
import './stdout-guard.js';

// Everything else loads dynamically so that the guard above runs before any dependency's code
// (a bundler hoists static imports of external packages above inlined modules). A failure to load
// (a broken or partial install, a Node too old for the bundle) still ends in one sentence saying
// what to do, never a bare status or a stack trace.
try {
  const { runCli } = await import('./run-cli.js');
  const status = await runCli(process.argv.slice(2));
  if (status !== undefined) process.exitCode = status;
} catch (error) {
  const reason = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/gu, ' ');
  process.stderr.write(
    `libos: could not start (${reason}); reinstall it with Node 20.19 or newer: npm i -g @libos/cli (or npx -y @libos/cli ...).\n`,
  );
  process.exitCode = 1;
}
