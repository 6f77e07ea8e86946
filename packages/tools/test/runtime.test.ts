import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_BOUNDS, LibosError, parseConfig, type FileSystemProviderV1 } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { createTestbed } from './support/harness.js';

/** The parts of a tool's JSON Schema these tests read. */
interface JsonSchemaObject {
  readonly properties: Record<string, Record<string, unknown> & { readonly items?: JsonSchemaObject }>;
  readonly required: string[];
}

const TOOL_NAMES = [
  'get_working_directory',
  'set_working_directory',
  'read_directory',
  'read_text_file',
  'read_media_file',
  'write_text_file',
  'edit_text_file',
  'apply_patch',
  'append_text_file',
  'search_files',
  'find_files',
  'write_directory',
  'delete_file',
  'delete_directory',
  'move_file',
  'copy_file',
  'create_object_from_file',
  'write_object_to_file',
];

describe('createRuntime', () => {
  it('refuses a provider that cannot replace atomically or create exclusively', async () => {
    const provider = createMemfsProvider();
    for (const capability of ['atomicReplace', 'exclusiveCreate'] as const) {
      const weak: FileSystemProviderV1 = { ...provider, capabilities: { ...provider.capabilities, [capability]: false } };
      const failure = await createRuntime({ provider: weak }).catch((error: unknown) => error);
      expect(LibosError.is(failure, 'invalid_arguments')).toBe(true);
      expect((failure as Error).message).toContain(capability);
    }
  });

  it('refuses a provider of an interface version it has no adapter for, naming the versions it accepts', async () => {
    const provider = createMemfsProvider();
    for (const version of ['v2', undefined, '__proto__']) {
      const other = { ...provider, specificationVersion: version } as unknown as FileSystemProviderV1;
      const failure = await createRuntime({ provider: other }).catch((error: unknown) => error);
      expect(LibosError.is(failure, 'invalid_arguments'), String(version)).toBe(true);
      expect((failure as LibosError).details).toEqual({ accepted: ['v1'] });
      expect((failure as Error).message).toMatch(/this runtime accepts v1\.$/);
    }
    const nothing = await createRuntime({ provider: undefined as never }).catch((error: unknown) => error);
    expect(LibosError.is(nothing, 'invalid_arguments')).toBe(true);
  });

  it('validates a raw config and accepts an already parsed one', async () => {
    const raw = { bounds: { list_limit_default: 2 } };
    const fromRaw = await createRuntime({ provider: createMemfsProvider(), config: raw });
    expect(fromRaw.bounds.list_limit_default).toBe(2);
    expect(fromRaw.bounds.read_max_bytes_limit).toBe(DEFAULT_BOUNDS.read_max_bytes_limit);
    const fromParsed = await createRuntime({ provider: createMemfsProvider(), config: parseConfig(raw) });
    expect(fromParsed.config).toEqual(fromRaw.config);
    const failure = await createRuntime({ provider: createMemfsProvider(), config: { bounds: { list_limit_max: 0 } } }).catch(
      (error: unknown) => error,
    );
    expect(LibosError.is(failure, 'invalid_arguments')).toBe(true);
    expect((failure as Error).message).toContain('config.bounds.list_limit_max');
  });

  it('uses default bounds without a config', async () => {
    const runtime = await createRuntime({ provider: createMemfsProvider() });
    expect(runtime.bounds).toEqual(DEFAULT_BOUNDS);
  });
});

describe('runtime.tools', () => {
  it('publishes every tool with a title, a description, closed JSON Schemas and annotations', async () => {
    const { runtime } = await createTestbed();
    expect(runtime.tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    for (const tool of runtime.tools) {
      expect(tool.title.length).toBeGreaterThan(0);
      expect(tool.description.length).toBeGreaterThan(60);
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        expect(schema).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false });
      }
      expect(tool.annotations.openWorldHint).toBe(false);
      expect(Object.keys(tool.annotations).sort()).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint']);
    }
  });

  it('marks reads read-only and deletes destructive', async () => {
    const { runtime } = await createTestbed();
    const hints = Object.fromEntries(runtime.tools.map((tool) => [tool.name, tool.annotations]));
    for (const name of ['get_working_directory', 'read_directory', 'read_text_file']) {
      expect(hints[name]).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    }
    for (const name of ['write_text_file', 'delete_file', 'delete_directory']) {
      expect(hints[name]).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
    expect(hints.write_directory).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
  });

  it('shows defaults, required fields and the configured bounds in the input schemas', async () => {
    const { runtime } = await createTestbed({ config: { bounds: { list_limit_default: 7, list_limit_max: 70 } } });
    const schema = (name: string) => runtime.tools.find((tool) => tool.name === name)!.inputSchema as unknown as JsonSchemaObject;
    expect(schema('read_directory').properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 70, default: 7 });
    expect(schema('read_directory').required).toEqual(['path']);
    expect(schema('read_text_file').properties.max_bytes).toMatchObject({
      minimum: 1,
      maximum: DEFAULT_BOUNDS.read_max_bytes_limit,
      default: DEFAULT_BOUNDS.read_max_bytes_default,
    });
    expect(schema('write_text_file').required).toEqual(['path', 'content']);
    expect(schema('write_text_file').properties.overwrite).toMatchObject({ type: 'boolean', default: true });
    expect(schema('delete_directory').properties.recursive).toMatchObject({ type: 'boolean', default: false });
    expect(schema('get_working_directory')).toMatchObject({ properties: {} });
  });

  it('lists every field of an output as required', async () => {
    const { runtime } = await createTestbed();
    const output = (name: string) => runtime.tools.find((tool) => tool.name === name)!.outputSchema as unknown as JsonSchemaObject;
    expect(output('read_text_file').required.sort()).toEqual(['bytes_read', 'content', 'content_sha256', 'encoding', 'path', 'truncated']);
    expect(output('read_directory').properties.entries?.items?.required.sort()).toEqual(['kind', 'modified_at', 'name', 'path', 'size_bytes']);
    expect(output('delete_file').required.sort()).toEqual(['deleted', 'kind', 'path', 'recursive']);
  });
});

describe('processes', () => {
  it('starts at the root with a pid and its own namespace', async () => {
    const { runtime, process } = await createTestbed();
    expect(process.id).toMatch(/^pid_[0-9a-f]{16}$/);
    expect(process.namespace).toBe(`process:${process.id}`);
    expect(process.cwd).toBe('.');
    expect(runtime.spawn().id).not.toBe(process.id);
  });

  it('gives a child its parent cwd, and keeps the two independent afterwards', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('a/b');
    await bed.ok('set_working_directory', { path: 'a' });
    const child = bed.process.spawn();
    expect(child.cwd).toBe('a');
    expect(child.id).not.toBe(bed.process.id);
    await child.call('set_working_directory', { path: 'b' });
    expect(child.cwd).toBe('a/b');
    expect(bed.process.cwd).toBe('a');
    expect(await bed.process.call('get_working_directory', {})).toEqual({ ok: true, result: { working_directory: 'a' } });
  });

  it('starts a child in a given cwd, relative to the parent cwd', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('a/b');
    await bed.ok('set_working_directory', { path: 'a' });
    const child = await bed.process.spawn({ cwd: 'b' });
    expect(child.cwd).toBe('a/b');
    const top = await bed.runtime.spawn({ cwd: 'a/./b/' });
    expect(top.cwd).toBe('a/b');
    const up = await child.spawn({ cwd: '..' });
    expect(up.cwd).toBe('a');
  });

  it('validates a child cwd like set_working_directory', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('file.txt', 'x');
    await bed.fixtures.makeDirectory('real');
    await bed.fixtures.symlink('link', 'real');
    const cases: [string, string][] = [
      ['missing', 'not_found'],
      ['file.txt', 'not_a_directory'],
      ['link', 'symlink_refused'],
      ['..', 'outside_workspace'],
      ['/abs', 'invalid_path'],
      ['.git', 'protected_path'],
    ];
    for (const [cwd, code] of cases) {
      const failure = await bed.process.spawn({ cwd }).catch((error: unknown) => error);
      expect(LibosError.is(failure, code as never), `${cwd} -> ${code}`).toBe(true);
      const fromRuntime = await bed.runtime.spawn({ cwd }).catch((error: unknown) => error);
      expect(LibosError.is(fromRuntime, code as never)).toBe(true);
    }
  });

  it('reports no host directory on memfs and the provider host path when there is one', async () => {
    const { process } = await createTestbed();
    expect(process.hostWorkingDirectory()).toBeUndefined();
    const { provider, fixtures } = createMemfsTestbed();
    await fixtures.makeDirectory('src');
    const hosted: FileSystemProviderV1 = { ...provider, hostPath: (path) => `/host/root/${path}` };
    const runtime = await createRuntime({ provider: hosted });
    const child = await runtime.spawn({ cwd: 'src' });
    expect(child.hostWorkingDirectory()).toBe('/host/root/src');
  });
});

describe('close', () => {
  it('closes the provider once, and later calls fail without throwing', async () => {
    const { provider } = createMemfsTestbed();
    let closes = 0;
    const runtime = await createRuntime({ provider: { ...provider, close: async () => void closes++ } });
    const process = runtime.spawn();
    await runtime.close();
    await runtime.close();
    expect(closes).toBe(1);
    const outcome = await process.call('read_directory', { path: '.' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'provider_failure', effect: 'none' } });
  });
});

describe('approval timeout', () => {
  it('an approver that never answers ends in approval_required, nothing written', async () => {
    const bed = await createTestbed({
      config: { grants: [{ path: '.', tree: true, rights: ['read', 'write'], mode: 'ask' }] },
      approver: () => new Promise(() => undefined),
      approvalTimeoutMs: 50,
    });
    const failure = await bed.fail('write_text_file', { path: 'late.txt', content: 'x' });
    expect(failure).toMatchObject({ code: 'approval_required', effect: 'none' });
    expect(await bed.fixtures.kindOf('late.txt')).toBe('missing');
  });
});

// The child runs the built packages (CI builds before testing); without them the case reports skipped.
const builtTools = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const builtMemfs = fileURLToPath(new URL('../../provider-memfs/dist/index.js', import.meta.url));

describe('approval timeout keeps the process alive', () => {
  it.runIf(existsSync(builtTools) && existsSync(builtMemfs))(
    'a child process whose only pending work is a silent approver still gets approval_required',
    () => {
      const script = `
      const { createRuntime } = await import(${JSON.stringify(builtTools)});
      const { createMemfsProvider } = await import(${JSON.stringify(builtMemfs)});
      const runtime = await createRuntime({
        provider: createMemfsProvider(),
        config: { grants: [{ path: '.', tree: true, rights: ['write'], mode: 'ask' }] },
        approver: () => new Promise(() => {}),
        approvalTimeoutMs: 100,
      });
      const outcome = await runtime.spawn().call('write_text_file', { path: 'x.txt', content: 'x' });
      process.stdout.write(outcome.ok ? 'ok' : outcome.error.code);`;
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(output).toBe('approval_required');
    },
  );
});
