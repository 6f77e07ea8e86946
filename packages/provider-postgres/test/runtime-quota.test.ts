import { createLocalProvider } from '@libos/provider-local';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { describePostgres, testProvider } from './postgres.js';

// A bound the config names is enforced or refused at start, never silently ignored: before, a
// runtime over a provider made without `workspaceMaxBytes` let a 1.1 MB write past a 1 MB bound land.

const MB = 1_000_000;

async function refusal(start: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await start;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('Expected the runtime to be refused at start.');
}

describePostgres('a workspace_max_bytes bound over createRuntime', () => {
  it('is refused at start when the postgres provider enforces another bound (its default), and nothing is written', async () => {
    const provider = testProvider();
    const error = await refusal(createRuntime({ provider, config: { bounds: { workspace_max_bytes: MB } } }));
    expect(error).toMatchObject({ code: 'invalid_arguments', details: { configured: MB, enforced: 10 * 1024 ** 3 } });
    expect(String(error.message)).toMatch(/workspaceMaxBytes: 1000000/);
    expect(await provider.stat('big.bin' as never)).toMatchObject({ kind: 'missing' });
  });

  it('is enforced when the provider keeps the same bound: a 1.1 MB write past 1 MB is quota_exceeded', async () => {
    const provider = testProvider({ workspaceMaxBytes: MB });
    const runtime = await createRuntime({ provider, config: { bounds: { workspace_max_bytes: MB } } });
    onTestFinished(() => runtime.close());
    const outcome = await runtime.spawn().call('write_text_file', { path: 'big.txt', content: 'x'.repeat(1.1 * MB) });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'quota_exceeded', effect: 'none' } });
    expect(await provider.stat('big.txt' as never)).toMatchObject({ kind: 'missing' });
  });

  it('a provider made with a bound the config does not name (the default) is refused too', async () => {
    const provider = testProvider({ workspaceMaxBytes: MB });
    const error = await refusal(createRuntime({ provider }));
    expect(error).toMatchObject({ code: 'invalid_arguments', details: { configured: 10 * 1024 ** 3, enforced: MB } });
  });
});

it('a provider that keeps no quota (memfs, local) refuses a bound other than the default, and accepts none', async () => {
  const error = await refusal(createRuntime({ provider: createMemfsProvider(), config: { bounds: { workspace_max_bytes: MB } } }));
  expect(error).toMatchObject({ code: 'invalid_arguments', details: { configured: MB, enforced: null } });
  expect(String(error.message)).toMatch(/keeps no workspace quota/);
  const root = mkdtempSync(join(tmpdir(), 'libos-quota-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const local = createLocalProvider({ root });
  onTestFinished(() => local.close());
  await expect(createRuntime({ provider: local, config: { bounds: { workspace_max_bytes: MB } } })).rejects.toMatchObject({
    code: 'invalid_arguments',
  });
  const runtime = await createRuntime({ provider: createMemfsProvider(), config: { bounds: {} } });
  await runtime.close();
});
