import type { ErrorCode } from '@libos/core';
import { createRuntime } from '@libos/tools';
import type { RuntimeProcess } from '@libos/tools';
import { expect } from 'vitest';
import { OUTSIDE_CONTENT, createLocalTestbed, fingerprintTree } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

/** What a call must give: success (optionally checked further) or one error code (and effect). */
export type Expectation =
  | 'ok'
  | ErrorCode
  | { readonly code: ErrorCode; readonly effect: 'none' | 'unknown' }
  | ((result: Record<string, unknown>) => void);

/** One tool call of an attack and what it must give. */
export type AttackCall = readonly [tool: string, args: Record<string, unknown>, expected: Expectation];

/**
 * Runs calls through a runtime over a fresh sandbox and checks, after each call, that the outside
 * sibling is byte-for-byte what it was and that no result carries outside bytes or a host path.
 */
export async function runAttack(
  setup: (sandbox: Sandbox) => void | Promise<void>,
  calls: readonly AttackCall[] | ((sandbox: Sandbox) => readonly AttackCall[]),
  after?: (sandbox: Sandbox) => void,
  options: { readonly borrowWorkingDirectory?: boolean } = {},
): Promise<void> {
  const { sandbox, provider } = createLocalTestbed(undefined, options);
  try {
    await setup(sandbox);
    const before = fingerprintTree(sandbox.outside);
    const runtime = await createRuntime({ provider });
    try {
      const process: RuntimeProcess = runtime.spawn();
      for (const [tool, args, expected] of typeof calls === 'function' ? calls(sandbox) : calls) {
        const outcome = await process.call(tool, args);
        const json = JSON.stringify(outcome);
        const label = `${tool} ${JSON.stringify(args).slice(0, 120)} -> ${json.slice(0, 300)}`;
        expect(json.includes(OUTSIDE_CONTENT), `outside bytes leaked: ${label}`).toBe(false);
        expect(json.includes(sandbox.base), `host path leaked: ${label}`).toBe(false);
        check(outcome as { ok: boolean; result?: Record<string, unknown>; error?: { code: string; effect: string } }, expected, label);
        expect(fingerprintTree(sandbox.outside), `outside changed after ${label}`).toBe(before);
      }
      after?.(sandbox);
    } finally {
      await runtime.close();
    }
  } finally {
    sandbox.remove();
  }
}

function check(
  outcome: { ok: boolean; result?: Record<string, unknown>; error?: { code: string; effect: string } },
  expected: Expectation,
  label: string,
): void {
  if (expected === 'ok' || typeof expected === 'function') {
    expect(outcome.ok, label).toBe(true);
    if (typeof expected === 'function') expected(outcome.result ?? {});
    return;
  }
  const code = typeof expected === 'string' ? expected : expected.code;
  expect(outcome.ok, label).toBe(false);
  expect(outcome.error?.code, label).toBe(code);
  if (typeof expected === 'object') expect(outcome.error?.effect, label).toBe(expected.effect);
}
