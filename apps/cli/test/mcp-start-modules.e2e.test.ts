import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBOS_BIN, temporaryDirectory } from './support/libos-binary.js';

// A module loader hook (node:module register) that records every file the server loads, so the
// test sees exactly what a `libos mcp` session parses, by the bundle's own path comments.
const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:')) appendFileSync(log, url + '\\n');
  return nextLoad(url, context);
}
`;

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let register: string;
let log: string;
beforeAll(async () => {
  scratch = await temporaryDirectory();
  log = join(scratch.path, 'loaded.txt');
  await writeFile(log, '');
  await writeFile(join(scratch.path, 'hooks.mjs'), HOOKS);
  register = join(scratch.path, 'register.mjs');
  await writeFile(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(scratch.path, 'hooks.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });\n`,
  );
  await mkdir(join(scratch.path, 'root', 'notes'), { recursive: true });
  await writeFile(join(scratch.path, 'root', 'notes', 'a.txt'), 'hello\n');
});
afterAll(async () => {
  await scratch?.remove();
});

/** Which sources the server has loaded so far (the bundle's chunks name their sources in comments). */
function loaded(): Record<'zodEnglish' | 'cfworker' | 'zodGerman' | 'ajv' | 're2' | 'overlay' | 'httpAdapter', boolean> {
  const files = [
    ...new Set(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((url) => url !== ''),
    ),
  ];
  const text = files.map((url) => readFileSync(fileURLToPath(url), 'utf8')).join('\n');
  return {
    zodEnglish: text.includes('/zod/v4/locales/en.js'),
    cfworker: text.includes('@cfworker/json-schema'),
    zodGerman: text.includes('/zod/v4/locales/de.js'),
    // Ajv as its own package (SDK 1.x) or bundled inside SDK v2's ajvProvider module.
    ajv: /node_modules[\\/]\.pnpm[\\/]ajv@/u.test(text) || /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]ajvProvider-/u.test(text),
    re2: text.includes('/re2js/'),
    // The overlay's provider and its WebAssembly hasher, used by --overlay only.
    overlay: text.includes('/provider-overlay/') || text.includes('/hash-wasm@'),
    // The SDK's node:http adapter and its Hono server layer (which loads Node's fetch as it starts):
    // `libos serve` only.
    httpAdapter: text.includes('/@hono/node-server/') || text.includes('/@modelcontextprotocol/node/'),
  };
}

describe('libos mcp loads only what a session uses', () => {
  it('starts and lists without RE2, Ajv, zod translations, the overlay or the HTTP adapter, and loads RE2 with the first search', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', register, LIBOS_BIN, 'mcp', '--root', join(scratch.path, 'root')],
      stderr: 'pipe',
    });
    transport.stderr?.on('data', () => {});
    const client = new Client({ name: 'libos-cli-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const listing = await client.callTool({ name: 'read_directory', arguments: { path: 'notes' } });
      expect(listing.isError).toBeFalsy();
      // zod's English messages and the CfWorker validator are the controls: the session's own code
      // is found under the names the other checks look for.
      expect(loaded()).toEqual({ zodEnglish: true, cfworker: true, zodGerman: false, ajv: false, re2: false, overlay: false, httpAdapter: false });

      const search = await client.callTool({ name: 'search_files', arguments: { path: 'notes', query: 'hel+o', regex: true } });
      expect(search.isError, JSON.stringify(search.content)).toBeFalsy();
      expect(search.structuredContent).toMatchObject({ count: 1 });
      expect(loaded().re2).toBe(true);
    } finally {
      await client.close();
    }
  });
});
