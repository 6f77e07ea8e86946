import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BOUNDS, LibosError } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, loadConfig } from '../src/index.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'libos-config-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function configFile(name: string, content: string): Promise<string> {
  const file = join(directory, name);
  await writeFile(file, content);
  return file;
}

async function failureOf(promise: Promise<unknown>): Promise<LibosError> {
  const error = await promise.then(
    () => expect.fail('expected a failure'),
    (reason: unknown) => reason,
  );
  expect(LibosError.is(error)).toBe(true);
  return error as LibosError;
}

describe('loadConfig', () => {
  it('says plainly that a directory is not a config file', async () => {
    const failure = await failureOf(loadConfig(directory));
    expect(failure.code).toBe('invalid_arguments');
    expect(failure.message).toMatch(/it is a directory\.$/);
    expect(failure.message).not.toContain('EISDIR');
  });

  it('reads a config file, fills defaults, and feeds createRuntime', async () => {
    const file = await configFile(
      'good.json',
      JSON.stringify({ bounds: { list_limit_default: 5 }, grants: [{ path: 'src', tree: true, rights: ['read'] }] }),
    );
    const config = await loadConfig(file);
    expect(config.bounds).toEqual({ ...DEFAULT_BOUNDS, list_limit_default: 5 });
    expect(config.grants).toEqual([{ path: 'src', tree: true, rights: ['read'], mode: 'allow' }]);
    const runtime = await createRuntime({ provider: createMemfsProvider(), config });
    expect(runtime.config).toEqual(config);
  });

  it('accepts an empty object', async () => {
    expect((await loadConfig(await configFile('empty.json', '{}'))).bounds).toEqual(DEFAULT_BOUNDS);
  });

  it('names the bad field of a malformed config', async () => {
    const file = await configFile(
      'bad-field.json',
      JSON.stringify({
        grants: [
          { path: 'a', rights: ['read'] },
          { path: 'b', rights: ['read'], uses: 0 },
        ],
      }),
    );
    const error = await failureOf(loadConfig(file));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toContain('config.grants[1].uses');
    expect(error.message).toContain(file);
    const unknown = await failureOf(loadConfig(await configFile('unknown.json', '{"bound": {}}')));
    expect(unknown.message).toContain('"bound"');
    const path = await failureOf(loadConfig(await configFile('path.json', '{"grants": [{"path": "../up", "rights": ["read"]}]}')));
    expect(path.message).toContain('config.grants[0].path');
  });

  it('says clearly when the file is missing, not JSON, or not an object', async () => {
    const missing = await failureOf(loadConfig(join(directory, 'nope.json')));
    expect(missing.message).toMatch(/Cannot read the config file .*nope\.json: no such file\./);
    const broken = await failureOf(loadConfig(await configFile('broken.json', '{"bounds": ')));
    expect(broken.message).toMatch(/is not valid JSON/);
    const array = await failureOf(loadConfig(await configFile('array.json', '[]')));
    expect(array.message).toMatch(/must hold a JSON object/);
    const unreadable = await failureOf(loadConfig(directory));
    expect(unreadable.message).toMatch(/Cannot read the config file/);
  });
});
