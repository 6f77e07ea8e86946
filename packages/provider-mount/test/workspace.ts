import type { ConfigInput, LibosConfig } from '@libos/core';
import { createRuntime } from '@libos/tools';
import { afterEach } from 'vitest';
import { createMountProvider, type MountProviderOptions } from '../src/index.js';
import { type Backing, localBacking, memfsBacking } from './backings.js';

type Runtime = Awaited<ReturnType<typeof createRuntime>>;

const opened: Array<{ runtime: Runtime; backings: Backing[] }> = [];
afterEach(async () => {
  for (const { runtime, backings } of opened.splice(0)) {
    await runtime.close();
    for (const backing of backings) backing.remove();
  }
});

/** A runtime over `web` and `api`, each a fresh backing of the kind asked (memfs unless told). */
export async function mountedWorkspace(
  kinds: { web?: 'memfs' | 'local'; api?: 'memfs' | 'local' } = {},
  options: { config?: LibosConfig | ConfigInput; mount?: MountProviderOptions; approver?: Parameters<typeof createRuntime>[0]['approver'] } = {},
) {
  const web = kinds.web === 'local' ? localBacking() : memfsBacking();
  const api = kinds.api === 'local' ? localBacking() : memfsBacking();
  const provider = createMountProvider({ web: web.provider, api: api.provider }, options.mount);
  const runtime = await createRuntime({
    provider,
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.approver === undefined ? {} : { approver: options.approver }),
  });
  opened.push({ runtime, backings: [web, api] });
  const agent = runtime.spawn();
  /** Calls a tool and returns its result, or throws with the failure. */
  const ok = async (tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const outcome = await agent.call(tool as 'read_directory', args as never);
    if (!outcome.ok) throw new Error(`${tool} failed: ${JSON.stringify(outcome.error)}`);
    return outcome.result as Record<string, unknown>;
  };
  /** Calls a tool that must fail and returns its failure. */
  const fails = async (tool: string, args: Record<string, unknown>) => {
    const outcome = await agent.call(tool as 'read_directory', args as never);
    if (outcome.ok) throw new Error(`${tool} succeeded: ${JSON.stringify(outcome.result)}`);
    return outcome.error;
  };
  /** Both stores' whole contents, to prove a refused call changed nothing anywhere. */
  const fingerprint = (): string => `${web.wholeFingerprint()} ${api.wholeFingerprint()}`;
  return { runtime, provider, agent, web, api, ok, fails, fingerprint };
}
