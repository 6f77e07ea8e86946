#!/usr/bin/env node
import './stdout-guard.js';
import module from 'node:module';

// Node 22.1 and later keep V8's compiled code of the bundle between runs (in the OS temp folder;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off), so a `libos mcp` start parses its 2 MB of JavaScript
// once per version instead of every time. Node 20 has no such cache: the call is skipped there.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

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
