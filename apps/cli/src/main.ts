#!/usr/bin/env node
import './stdout-guard.js';

// Everything else loads dynamically so that the guard above runs before any dependency's code
// (a bundler hoists static imports of external packages above inlined modules).
const { runCli } = await import('./run-cli.js');
const status = await runCli(process.argv.slice(2));
if (status !== undefined) process.exitCode = status;
