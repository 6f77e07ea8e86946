import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '@libos/core';
import { afterAll, describe, expect, it } from 'vitest';
import { LibosError, loadConfig } from '../src/index.js';

const directory = mkdtempSync(join(tmpdir(), 'libos-config-optional-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('loadConfig(file, { optional: true })', () => {
  it('gives the default config for a file that does not exist', async () => {
    const config = await loadConfig(join(directory, 'none.json'), { optional: true });
    expect(config).toEqual(parseConfig({}));
    expect(config.bounds.read_max_bytes_default).toBe(65536);
  });

  it('still refuses a file that exists but is malformed, and a directory', async () => {
    const bad = join(directory, 'bad.json');
    writeFileSync(bad, '{"bounds": {"read_max_bytes_default": "x"}}');
    const error = await loadConfig(bad, { optional: true }).catch((caught: unknown) => caught);
    expect(LibosError.is(error, 'invalid_arguments')).toBe(true);
    expect((error as Error).message).toContain(bad);
    await expect(loadConfig(directory, { optional: true })).rejects.toMatchObject({ code: 'invalid_arguments' });
  });

  it('without optional, a missing file is an error naming it', async () => {
    await expect(loadConfig(join(directory, 'none.json'))).rejects.toThrow(/Cannot read the config file .*none\.json: no such file/);
  });
});
