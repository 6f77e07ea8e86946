import { ERROR_CODES, type CallResult, type ToolFailure } from '@libos/core';
import { DEFAULT_MEMFS_ROOT } from '@libos/provider-memfs';
import { createMemfsTestbed, type MemfsFixtures } from '@libos/provider-memfs/testing';
import { Ajv, type ValidateFunction } from 'ajv';
import { expect } from 'vitest';
import { BUILTIN_TOOLS, createRuntime, type Runtime, type RuntimeOptions, type RuntimeProcess } from '../../src/index.js';

/** A runtime on a fresh memfs volume, its root process, and raw fixtures to arrange and observe state. */
export interface Testbed {
  readonly runtime: Runtime;
  readonly process: RuntimeProcess;
  readonly fixtures: MemfsFixtures;
  /** Calls a tool on the root process and checks the result's shape against the published schemas. */
  call(name: string, args?: unknown): Promise<CallResult>;
  /** Calls a tool that must succeed; returns its result. */
  ok(name: string, args?: unknown): Promise<Record<string, unknown>>;
  /** Calls a tool that must fail; returns its error. */
  fail(name: string, args?: unknown): Promise<ToolFailure>;
}

/** Makes a testbed; `options` may carry a config or an approver. */
export async function createTestbed(options: Omit<RuntimeOptions, 'provider'> = {}): Promise<Testbed> {
  const { provider, fixtures } = createMemfsTestbed();
  const runtime = await createRuntime({ provider, ...options });
  const process = runtime.spawn();
  const call = (name: string, args?: unknown) => checkedCall(runtime, process, name, args);
  return {
    runtime,
    process,
    fixtures,
    call,
    async ok(name, args) {
      const outcome = await call(name, args);
      if (!outcome.ok) expect.fail(`${name} failed: ${JSON.stringify(outcome.error)}`);
      return outcome.result;
    },
    async fail(name, args) {
      const outcome = await call(name, args);
      if (outcome.ok) expect.fail(`${name} succeeded: ${JSON.stringify(outcome.result)}`);
      return outcome.error;
    },
  };
}

const ajv = new Ajv({ strict: true, allErrors: true });
const validators = new WeakMap<Runtime, Map<string, ValidateFunction>>();

/** Calls through `process.call` and asserts the contract shape of whatever comes back. */
export async function checkedCall(runtime: Runtime, process: RuntimeProcess, name: string, args?: unknown): Promise<CallResult> {
  const outcome = await process.call(name, args);
  assertContractResult(runtime, name, outcome);
  return outcome;
}

/**
 * A success matches the tool's published output JSON Schema (what an MCP client checks); a failure
 * has a closed code, a message, an effect, optional details, and never names a host path.
 */
export function assertContractResult(runtime: Runtime, name: string, outcome: CallResult): void {
  const text = JSON.stringify(outcome);
  expect(text).not.toContain(DEFAULT_MEMFS_ROOT);
  if (outcome.ok) {
    const validate = validatorFor(runtime, name);
    if (!validate(outcome.result)) expect.fail(`${name} result breaks its output schema: ${ajv.errorsText(validate.errors)}`);
    // The zod schema too, strictly: output checking costs nothing at runtime because it happens only here.
    BUILTIN_TOOLS.find((tool) => tool.name === name)!.outputSchema.parse(outcome.result);
    return;
  }
  const { error } = outcome;
  expect(Object.keys(error).every((key) => ['code', 'message', 'effect', 'details'].includes(key))).toBe(true);
  expect(ERROR_CODES).toContain(error.code);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  expect(['none', 'unknown']).toContain(error.effect);
  if ('details' in error) expect(JSON.parse(JSON.stringify(error.details))).toEqual(error.details);
  expect(outcome).not.toHaveProperty('result');
}

function validatorFor(runtime: Runtime, name: string): ValidateFunction {
  let byName = validators.get(runtime);
  if (byName === undefined) {
    byName = new Map(runtime.tools.map((tool) => [tool.name, ajv.compile(tool.outputSchema)]));
    validators.set(runtime, byName);
  }
  const validate = byName.get(name);
  if (validate === undefined) throw new Error(`no published tool ${name}`);
  return validate;
}

/** UTF-8 text of fixture bytes, or null. */
export function text(bytes: Uint8Array | null): string | null {
  return bytes === null ? null : new TextDecoder().decode(bytes);
}
