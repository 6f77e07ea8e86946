import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import type { ToolSummary } from '@libos/tools';
import { createMcpServer } from '../src/create-mcp-server.js';
import type { McpProcess } from '../src/mcp-runtime.js';
import { fakeRuntime } from './support/fake-runtime.js';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

const echoTool: ToolSummary = {
  name: 'echo',
  title: 'Echo',
  description: 'Returns its input.',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object' },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

function sourcesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourcesUnder(join(directory, entry.name)) : entry.name.endsWith('.ts') ? [join(directory, entry.name)] : [],
  );
}

/** A process that counts its ends. */
function countedProcess(): McpProcess & { ends: number } {
  const process = { ends: 0, call: async () => ({ ok: true as const, result: {} }), end: () => void (process.ends += 1) };
  return process;
}

async function connectedPair(process?: McpProcess) {
  const counted = countedProcess();
  const server = createMcpServer(fakeRuntime([echoTool], process ?? counted), process === undefined ? {} : { process });
  const client = new Client({ name: 'legacy-test', version: '0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, spawned: counted };
}

describe('the 2025-era sessions on SDK v2', () => {
  it('import nothing of SDK 1.x, which the library no longer depends on', () => {
    const importers = sourcesUnder(join(PACKAGE, 'src')).filter((file) => readFileSync(file, 'utf8').includes("'@modelcontextprotocol/sdk"));
    expect(importers).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).not.toContain('@modelcontextprotocol/sdk');
  });

  it('end the process the server spawned when its transport closes, and never a process it was given', async () => {
    const spawnedPair = await connectedPair();
    expect((await spawnedPair.client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    await spawnedPair.client.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(spawnedPair.spawned.ends).toBe(1);

    const given = countedProcess();
    const givenPair = await connectedPair(given);
    await givenPair.client.callTool({ name: 'echo', arguments: {} });
    await givenPair.client.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(given.ends).toBe(0);
  });
});
