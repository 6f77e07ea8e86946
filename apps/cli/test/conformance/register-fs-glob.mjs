// The conformance runner (a test tool; nothing of it ships) imports `globSync` from `fs`, which
// Node 20 lacks. Loaded with `node --import`, this hook gives that one package an `fs` that adds
// the `glob` package's globSync (same call shape: a pattern and `{cwd}`, paths relative to it).
// On a Node that has fs.globSync nothing is changed.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') register('./fs-glob-hooks.mjs', import.meta.url);
